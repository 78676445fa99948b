; REQUIRES: gfx8
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i32 @llvm.amdgcn.ds.permute(i32, i32)
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)
define amdgpu_kernel void @k39_bpermute(i32 addrspace(1)* %out, i32 addrspace(1)* %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %id
  %v = load i32, i32 addrspace(1)* %p
  %x = xor i32 %id, 1
  %a = shl i32 %x, 2
  %b = call i32 @llvm.amdgcn.ds.bpermute(i32 %a, i32 %v)
  %c = call i32 @llvm.amdgcn.ds.permute(i32 %a, i32 %b)
  %d = call i32 @llvm.amdgcn.ds.swizzle(i32 %c, i32 31)
  %s = add i32 %d, %b
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s, i32 addrspace(1)* %q
  ret void
}
