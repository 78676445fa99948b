declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.raw.buffer.store.v4f32(<4 x float>, <4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.v3f32(<3 x float>, <4 x i32>, i32, i32, i32)
define amdgpu_kernel void @k51_store_x4_hazard(<4 x float> addrspace(1)* %out, <4 x i32> %rsrc, <3 x float> addrspace(1)* %o3) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %f = uitofp i32 %id to float
  %v0 = insertelement <4 x float> undef, float %f, i32 0
  %v1 = insertelement <4 x float> %v0, float 1.0, i32 1
  %v2 = insertelement <4 x float> %v1, float 2.0, i32 2
  %v3 = insertelement <4 x float> %v2, float %f, i32 3
  call void @llvm.amdgcn.raw.buffer.store.v4f32(<4 x float> %v3, <4 x i32> %rsrc, i32 0, i32 0, i32 0)
  %g = fmul float %f, 3.0
  %w3 = insertelement <4 x float> %v3, float %g, i32 3
  %w0 = insertelement <4 x float> %w3, float %g, i32 0
  call void @llvm.amdgcn.raw.buffer.store.v4f32(<4 x float> %w0, <4 x i32> %rsrc, i32 16, i32 0, i32 0)
  %q = getelementptr <4 x float>, <4 x float> addrspace(1)* %out, i32 %id
  store <4 x float> %w0, <4 x float> addrspace(1)* %q
  %h = fadd float %g, 1.0
  %x0 = insertelement <3 x float> undef, float %h, i32 0
  %x1 = insertelement <3 x float> %x0, float %g, i32 1
  %x2 = insertelement <3 x float> %x1, float %h, i32 2
  %q3 = getelementptr <3 x float>, <3 x float> addrspace(1)* %o3, i32 %id
  store <3 x float> %x2, <3 x float> addrspace(1)* %q3
  %hh = fmul float %h, %h
  %y2 = insertelement <3 x float> %x2, float %hh, i32 0
  call void @llvm.amdgcn.raw.buffer.store.v3f32(<3 x float> %y2, <4 x i32> %rsrc, i32 32, i32 0, i32 0)
  ret void
}
