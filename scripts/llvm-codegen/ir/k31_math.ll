declare i32 @llvm.amdgcn.workitem.id.x()
declare float @llvm.sin.f32(float)
declare float @llvm.cos.f32(float)
declare float @llvm.exp2.f32(float)
declare float @llvm.log2.f32(float)
declare float @llvm.sqrt.f32(float)
define amdgpu_kernel void @k31_math(float addrspace(1)* %out, float addrspace(1)* %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %id
  %v = load float, float addrspace(1)* %p
  %a = call float @llvm.sin.f32(float %v)
  %b = call float @llvm.cos.f32(float %v)
  %c = call float @llvm.exp2.f32(float %a)
  %d = call float @llvm.log2.f32(float %b)
  %e = call float @llvm.sqrt.f32(float %v)
  %s1 = fadd float %c, %d
  %s2 = fadd float %s1, %e
  %q = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %s2, float addrspace(1)* %q
  ret void
}
