declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k13_fdiv(float addrspace(1)* %out, float addrspace(1)* %a, float addrspace(1)* %b) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr float, float addrspace(1)* %a, i32 %id
  %pb = getelementptr float, float addrspace(1)* %b, i32 %id
  %va = load float, float addrspace(1)* %pa
  %vb = load float, float addrspace(1)* %pb
  %d = fdiv float %va, %vb
  %d2 = fdiv float 1.0, %d
  %s = fadd float %d, %d2
  %q = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %s, float addrspace(1)* %q
  ret void
}
