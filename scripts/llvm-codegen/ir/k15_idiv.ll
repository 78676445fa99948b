declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k15_idiv(i32 addrspace(1)* %out, i32 addrspace(1)* %a, i32 %d, i64 addrspace(1)* %o64, i64 %d64) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i32, i32 addrspace(1)* %a, i32 %id
  %va = load i32, i32 addrspace(1)* %pa
  %q1 = udiv i32 %va, %d
  %r1 = srem i32 %va, 7
  %q2 = sdiv i32 %va, %r1
  %s = add i32 %q1, %q2
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s, i32 addrspace(1)* %q
  %e = sext i32 %va to i64
  %q64 = udiv i64 %e, %d64
  %p64 = getelementptr i64, i64 addrspace(1)* %o64, i32 %id
  store i64 %q64, i64 addrspace(1)* %p64
  ret void
}
