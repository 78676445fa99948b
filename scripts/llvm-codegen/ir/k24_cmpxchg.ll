declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k24_cmpxchg(float addrspace(1)* %acc, float addrspace(1)* %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %id
  %v = load float, float addrspace(1)* %p
  %old = atomicrmw fadd float addrspace(1)* %acc, float %v seq_cst
  %p2 = getelementptr float, float addrspace(1)* %acc, i32 1
  %o2 = atomicrmw fsub float addrspace(1)* %p2, float %old monotonic
  store float %o2, float addrspace(1)* %p
  ret void
}
