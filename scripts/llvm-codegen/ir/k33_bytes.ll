declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k33_bytes(i8 addrspace(1)* %out, i8 addrspace(1)* %in, i16 addrspace(1)* %s16) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i8, i8 addrspace(1)* %in, i32 %id
  %v = load i8, i8 addrspace(1)* %p
  %ps = getelementptr i16, i16 addrspace(1)* %s16, i32 %id
  %w = load i16, i16 addrspace(1)* %ps
  %vz = zext i8 %v to i16
  %ws = add i16 %w, %vz
  store i16 %ws, i16 addrspace(1)* %ps
  %x = sext i8 %v to i32
  %y = mul i32 %x, 3
  %t = trunc i32 %y to i8
  %q = getelementptr i8, i8 addrspace(1)* %out, i32 %id
  store i8 %t, i8 addrspace(1)* %q
  ret void
}
