%S = type { i32, float, i64, <2 x i32> }
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k41_struct_args(i32 addrspace(1)* %out, i8 %c, i16 %h, %S %s, i32 %tail) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %a = extractvalue %S %s, 0
  %b = extractvalue %S %s, 2
  %v = extractvalue %S %s, 3
  %v1 = extractelement <2 x i32> %v, i32 1
  %cz = zext i8 %c to i32
  %hz = sext i16 %h to i32
  %bt = trunc i64 %b to i32
  %x1 = add i32 %a, %cz
  %x2 = add i32 %x1, %hz
  %x3 = add i32 %x2, %bt
  %x4 = add i32 %x3, %v1
  %x5 = add i32 %x4, %tail
  %x6 = add i32 %x5, %id
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %x6, i32 addrspace(1)* %q
  ret void
}
