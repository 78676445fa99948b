@sh = internal addrspace(3) global [256 x float] undef, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()
define amdgpu_kernel void @k23_lds_reduce(float addrspace(1)* %out, float addrspace(1)* %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gid = call i32 @llvm.amdgcn.workgroup.id.x()
  %g = shl i32 %gid, 8
  %i = add i32 %g, %tid
  %p = getelementptr float, float addrspace(1)* %in, i32 %i
  %v = load float, float addrspace(1)* %p
  %l = getelementptr [256 x float], [256 x float] addrspace(3)* @sh, i32 0, i32 %tid
  store float %v, float addrspace(3)* %l
  br label %loop
loop:
  %s = phi i32 [128, %entry], [%s1, %latch]
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %c = icmp ult i32 %tid, %s
  br i1 %c, label %add, label %latch
add:
  %j = add i32 %tid, %s
  %lj = getelementptr [256 x float], [256 x float] addrspace(3)* @sh, i32 0, i32 %j
  %a = load float, float addrspace(3)* %lj
  %b = load float, float addrspace(3)* %l
  %sum = fadd float %a, %b
  store float %sum, float addrspace(3)* %l
  br label %latch
latch:
  %s1 = lshr i32 %s, 1
  %cc = icmp ne i32 %s1, 0
  br i1 %cc, label %loop, label %fin
fin:
  %z = icmp eq i32 %tid, 0
  br i1 %z, label %wr, label %end
wr:
  %l0 = getelementptr [256 x float], [256 x float] addrspace(3)* @sh, i32 0, i32 0
  %r = load float, float addrspace(3)* %l0
  %q = getelementptr float, float addrspace(1)* %out, i32 %gid
  store float %r, float addrspace(1)* %q
  br label %end
end:
  ret void
}
