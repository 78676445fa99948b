declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k57_big_kernarg(i32 addrspace(1)* %out, <16 x i32> %a, <8 x i32> %b, i32 %c) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %j = and i32 %id, 15
  %e = extractelement <16 x i32> %a, i32 %j
  %k = and i32 %id, 7
  %f = extractelement <8 x i32> %b, i32 %k
  %s = add i32 %e, %f
  %s2 = add i32 %s, %c
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s2, i32 addrspace(1)* %q
  ret void
}
