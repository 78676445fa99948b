declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k01_global_copy(float addrspace(1)* %out, float addrspace(1)* %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %id
  %v = load float, float addrspace(1)* %p
  %m = fmul float %v, 3.0
  %q = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %m, float addrspace(1)* %q
  ret void
}
