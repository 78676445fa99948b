declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k05_constant(i32 addrspace(1)* %out, i32 addrspace(4)* %tab, i32 %k) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pk = getelementptr i32, i32 addrspace(4)* %tab, i32 %k
  %u = load i32, i32 addrspace(4)* %pk
  %pk2 = getelementptr i32, i32 addrspace(4)* %pk, i32 7
  %u2 = load i32, i32 addrspace(4)* %pk2
  %pd = getelementptr i32, i32 addrspace(4)* %tab, i32 %id
  %d = load i32, i32 addrspace(4)* %pd
  %s = add i32 %u, %d
  %s2 = mul i32 %s, %u2
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s2, i32 addrspace(1)* %q
  ret void
}
