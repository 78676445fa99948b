declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32>, i32, i32)
declare <4 x i32> @llvm.amdgcn.s.buffer.load.v4i32(<4 x i32>, i32, i32)
declare void @llvm.amdgcn.s.dcache.wb()
define amdgpu_kernel void @k53_sbuffer(i32 addrspace(1)* %out, <4 x i32> %rsrc, i32 %off) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %a = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %rsrc, i32 %off, i32 0)
  %b = call <4 x i32> @llvm.amdgcn.s.buffer.load.v4i32(<4 x i32> %rsrc, i32 16, i32 0)
  %b2 = extractelement <4 x i32> %b, i32 2
  %c = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %rsrc, i32 %id, i32 0)
  %s = add i32 %a, %b2
  %s2 = add i32 %s, %c
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s2, i32 addrspace(1)* %q
  ret void
}
