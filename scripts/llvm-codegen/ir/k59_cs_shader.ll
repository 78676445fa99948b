; SHADER
declare <4 x float> @llvm.amdgcn.raw.buffer.load.v4f32(<4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.v4f32(<4 x float>, <4 x i32>, i32, i32, i32)
define amdgpu_cs void @k59_cs_shader(<4 x i32> inreg %r, i32 inreg %base, <3 x i32> %tid) {
  %x = extractelement <3 x i32> %tid, i32 0
  %o = shl i32 %x, 4
  %v = call <4 x float> @llvm.amdgcn.raw.buffer.load.v4f32(<4 x i32> %r, i32 %o, i32 %base, i32 0)
  %w = fmul <4 x float> %v, <float 2.0, float 2.0, float 2.0, float 2.0>
  call void @llvm.amdgcn.raw.buffer.store.v4f32(<4 x float> %w, <4 x i32> %r, i32 %o, i32 0, i32 0)
  ret void
}
