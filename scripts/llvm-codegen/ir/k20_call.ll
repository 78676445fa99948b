declare i32 @llvm.amdgcn.workitem.id.x()
define internal float @helper(float %a, float addrspace(1)* %p) #0 {
  %v = load float, float addrspace(1)* %p
  %m = fmul float %a, %v
  %n = fadd float %m, 1.0
  store float %n, float addrspace(1)* %p
  ret float %m
}
define amdgpu_kernel void @k20_call(float addrspace(1)* %out, float addrspace(1)* %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %id
  %v = load float, float addrspace(1)* %p
  %r = call float @helper(float %v, float addrspace(1)* %out)
  %r2 = call float @helper(float %r, float addrspace(1)* %p)
  %q = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %r2, float addrspace(1)* %q
  ret void
}
attributes #0 = { noinline }
