declare i32 @llvm.amdgcn.workitem.id.x()
declare i64 @llvm.amdgcn.icmp.i64.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
define amdgpu_kernel void @k29_ballot(i32 addrspace(1)* %out, i32 addrspace(1)* %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %id
  %v = load i32, i32 addrspace(1)* %p
  %b = call i64 @llvm.amdgcn.icmp.i64.i32(i32 %v, i32 0, i32 33)
  %lo = trunc i64 %b to i32
  %hs = lshr i64 %b, 32
  %hi = trunc i64 %hs to i32
  %m1 = call i32 @llvm.amdgcn.mbcnt.lo(i32 %lo, i32 0)
  %m2 = call i32 @llvm.amdgcn.mbcnt.hi(i32 %hi, i32 %m1)
  %pc = call i64 @llvm.ctpop.i64(i64 %b)
  %pc32 = trunc i64 %pc to i32
  %s = add i32 %m2, %pc32
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s, i32 addrspace(1)* %q
  ret void
}
declare i64 @llvm.ctpop.i64(i64)
