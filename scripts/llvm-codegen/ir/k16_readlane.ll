declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readlane(i32, i32)
declare i32 @llvm.amdgcn.readfirstlane(i32)
declare i32 @llvm.amdgcn.writelane(i32, i32, i32)
define amdgpu_kernel void @k16_readlane(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %lane) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %id
  %v = load i32, i32 addrspace(1)* %p
  %f = call i32 @llvm.amdgcn.readfirstlane(i32 %v)
  %m = mul i32 %v, 3
  %l = and i32 %f, 63
  %r = call i32 @llvm.amdgcn.readlane(i32 %m, i32 %l)
  %r2 = call i32 @llvm.amdgcn.readlane(i32 %v, i32 %lane)
  %w = call i32 @llvm.amdgcn.writelane(i32 %r2, i32 %l, i32 %m)
  %s = add i32 %r, %w
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s, i32 addrspace(1)* %q
  ret void
}
