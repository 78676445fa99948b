; REQUIRES: gfx8
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32, i32, i32, i1)
define amdgpu_kernel void @k17_dpp(i32 addrspace(1)* %out, i32 addrspace(1)* %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %id
  %v = load i32, i32 addrspace(1)* %p
  %a = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 273, i32 15, i32 15, i1 false)
  %s1 = add i32 %v, %a
  %b = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s1, i32 274, i32 15, i32 15, i1 false)
  %s2 = add i32 %s1, %b
  %c = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %s2, i32 276, i32 15, i32 14, i1 true)
  %s3 = add i32 %s2, %c
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s3, i32 addrspace(1)* %q
  ret void
}
