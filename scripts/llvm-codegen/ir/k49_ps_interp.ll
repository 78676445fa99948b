; SHADER
declare float @llvm.amdgcn.interp.p1(float, i32, i32, i32)
declare float @llvm.amdgcn.interp.p2(float, float, i32, i32, i32)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
define amdgpu_ps void @k49_ps_interp(i32 inreg %prim, <2 x float> %ij, float addrspace(1)* inreg %p) {
  %i = extractelement <2 x float> %ij, i32 0
  %j = extractelement <2 x float> %ij, i32 1
  %a = call float @llvm.amdgcn.interp.p1(float %i, i32 0, i32 0, i32 %prim)
  %b = call float @llvm.amdgcn.interp.p2(float %a, float %j, i32 0, i32 0, i32 %prim)
  %c = call float @llvm.amdgcn.interp.p1(float %i, i32 1, i32 0, i32 %prim)
  %d = call float @llvm.amdgcn.interp.p2(float %c, float %j, i32 1, i32 0, i32 %prim)
  %v = load float, float addrspace(1)* %p
  %e = fmul float %d, %v
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %b, float %e, float %b, float %e, i1 true, i1 true)
  ret void
}
