declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k52_dyn_index(float addrspace(1)* %out, <16 x float> addrspace(1)* %in, i32 %k) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr <16 x float>, <16 x float> addrspace(1)* %in, i32 %id
  %v = load <16 x float>, <16 x float> addrspace(1)* %p
  %e = extractelement <16 x float> %v, i32 %k
  %v2 = insertelement <16 x float> %v, float 7.0, i32 %k
  %k2 = add i32 %k, 3
  %e2 = extractelement <16 x float> %v2, i32 %k2
  %s = fadd float %e, %e2
  %q = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %s, float addrspace(1)* %q
  %j = and i32 %id, 15
  %e3 = extractelement <16 x float> %v2, i32 %j
  %q2 = getelementptr float, float addrspace(1)* %q, i32 4096
  store float %e3, float addrspace(1)* %q2
  ret void
}
