declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
define amdgpu_kernel void @k09_nested_loops(float addrspace(1)* %c, float addrspace(1)* %a, float addrspace(1)* %b, i32 %n) {
entry:
  %row = call i32 @llvm.amdgcn.workitem.id.y()
  %col = call i32 @llvm.amdgcn.workitem.id.x()
  %cn = icmp sgt i32 %n, 0
  br i1 %cn, label %outer, label %exit
outer:
  %j = phi i32 [0, %entry], [%j1, %outer.latch]
  %acc0 = phi float [0.0, %entry], [%accj, %outer.latch]
  br label %inner
inner:
  %k = phi i32 [0, %outer], [%k1, %inner]
  %acc = phi float [%acc0, %outer], [%acc1, %inner]
  %ra = mul i32 %row, %n
  %ia = add i32 %ra, %k
  %pa = getelementptr float, float addrspace(1)* %a, i32 %ia
  %va = load float, float addrspace(1)* %pa
  %kb = mul i32 %k, %n
  %ib = add i32 %kb, %col
  %ib2 = add i32 %ib, %j
  %pb = getelementptr float, float addrspace(1)* %b, i32 %ib2
  %vb = load float, float addrspace(1)* %pb
  %acc1 = call float @llvm.fma.f32(float %va, float %vb, float %acc)
  %k1 = add i32 %k, 1
  %ck = icmp slt i32 %k1, %n
  br i1 %ck, label %inner, label %outer.latch
outer.latch:
  %accj = phi float [%acc1, %inner]
  %j1 = add i32 %j, 1
  %cj = icmp slt i32 %j1, 4
  br i1 %cj, label %outer, label %exit
exit:
  %r = phi float [0.0, %entry], [%accj, %outer.latch]
  %rc = mul i32 %row, %n
  %ic = add i32 %rc, %col
  %pc = getelementptr float, float addrspace(1)* %c, i32 %ic
  store float %r, float addrspace(1)* %pc
  ret void
}
declare float @llvm.fma.f32(float, float, float)
