declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k25_i64(i64 addrspace(1)* %out, i64 addrspace(1)* %a, i64 %k) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i64, i64 addrspace(1)* %a, i32 %id
  %va = load i64, i64 addrspace(1)* %pa
  %pb = getelementptr i64, i64 addrspace(1)* %pa, i32 256
  %vb = load i64, i64 addrspace(1)* %pb
  %m = mul i64 %va, %vb
  %s = add i64 %m, %k
  %sh = lshr i64 %s, 13
  %x = xor i64 %sh, %va
  %c = icmp ugt i64 %x, %k
  %r = select i1 %c, i64 %x, i64 %vb
  %q = getelementptr i64, i64 addrspace(1)* %out, i32 %id
  store i64 %r, i64 addrspace(1)* %q
  ret void
}
