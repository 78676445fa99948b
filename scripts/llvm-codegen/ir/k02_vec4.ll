declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
define amdgpu_kernel void @k02_vec4(<4 x float> addrspace(1)* %out, <4 x float> addrspace(1)* %a, <4 x float> addrspace(1)* %b) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gid = call i32 @llvm.amdgcn.workgroup.id.x()
  %g = mul i32 %gid, 64
  %id = add i32 %g, %tid
  %pa = getelementptr <4 x float>, <4 x float> addrspace(1)* %a, i32 %id
  %pb = getelementptr <4 x float>, <4 x float> addrspace(1)* %b, i32 %id
  %va = load <4 x float>, <4 x float> addrspace(1)* %pa
  %vb = load <4 x float>, <4 x float> addrspace(1)* %pb
  %s = fadd <4 x float> %va, %vb
  %q = getelementptr <4 x float>, <4 x float> addrspace(1)* %out, i32 %id
  store <4 x float> %s, <4 x float> addrspace(1)* %q
  %q2 = getelementptr <4 x float>, <4 x float> addrspace(1)* %q, i32 1024
  store <4 x float> %va, <4 x float> addrspace(1)* %q2
  ret void
}
