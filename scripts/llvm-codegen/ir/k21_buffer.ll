declare i32 @llvm.amdgcn.workitem.id.x()
declare float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32>, i32, i32, i32)
declare <4 x float> @llvm.amdgcn.raw.buffer.load.v4f32(<4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.f32(float, <4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.v4f32(<4 x float>, <4 x i32>, i32, i32, i32)
define amdgpu_kernel void @k21_buffer(<4 x i32> %rsrc, <4 x i32> %orsrc, i32 %soff) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %off = shl i32 %id, 2
  %v = call float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32> %rsrc, i32 %off, i32 %soff, i32 0)
  %off4 = shl i32 %id, 4
  %w = call <4 x float> @llvm.amdgcn.raw.buffer.load.v4f32(<4 x i32> %rsrc, i32 %off4, i32 0, i32 1)
  %e = extractelement <4 x float> %w, i32 2
  %s = fadd float %v, %e
  call void @llvm.amdgcn.raw.buffer.store.f32(float %s, <4 x i32> %orsrc, i32 %off, i32 0, i32 0)
  %w2 = fmul <4 x float> %w, %w
  call void @llvm.amdgcn.raw.buffer.store.v4f32(<4 x float> %w2, <4 x i32> %orsrc, i32 %off4, i32 16, i32 0)
  ret void
}
