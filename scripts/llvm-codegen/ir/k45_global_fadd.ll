declare i32 @llvm.amdgcn.workitem.id.x()
declare float @llvm.amdgcn.global.atomic.fadd.f32.p1f32.f32(float addrspace(1)*, float)
define amdgpu_kernel void @k45_global_fadd(float addrspace(1)* %acc, float addrspace(1)* %in, i32 %k) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %id
  %v = load float, float addrspace(1)* %p
  %m = and i32 %id, 15
  %pa = getelementptr float, float addrspace(1)* %acc, i32 %m
  %o = atomicrmw fadd float addrspace(1)* %pa, float %v monotonic
  %pk = getelementptr float, float addrspace(1)* %acc, i32 %k
  %o2 = atomicrmw fsub float addrspace(1)* %pk, float %o monotonic
  store float %o2, float addrspace(1)* %p
  ret void
}
