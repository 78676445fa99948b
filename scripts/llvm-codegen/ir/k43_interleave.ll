declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k43_interleave(float addrspace(1)* %o, float addrspace(1)* %a, float addrspace(1)* %b, float addrspace(1)* %c, float addrspace(1)* %d) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr float, float addrspace(1)* %a, i32 %id
  %pb = getelementptr float, float addrspace(1)* %b, i32 %id
  %pc = getelementptr float, float addrspace(1)* %c, i32 %id
  %pd = getelementptr float, float addrspace(1)* %d, i32 %id
  %va = load float, float addrspace(1)* %pa
  %vb = load float, float addrspace(1)* %pb
  %vc = load float, float addrspace(1)* %pc
  %vd = load float, float addrspace(1)* %pd
  %x = fmul float %va, %vb
  %po = getelementptr float, float addrspace(1)* %o, i32 %id
  store float %x, float addrspace(1)* %po
  %y = fadd float %x, %vc
  %po2 = getelementptr float, float addrspace(1)* %po, i32 64
  store float %y, float addrspace(1)* %po2
  %z = fsub float %y, %vd
  %po3 = getelementptr float, float addrspace(1)* %po, i32 128
  store float %z, float addrspace(1)* %po3
  ret void
}
