@tile = internal addrspace(3) global [64 x float] undef, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
define amdgpu_kernel void @k58_loop_lds_global(float addrspace(1)* %out, float addrspace(1)* %in, i32 %n) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %l = getelementptr [64 x float], [64 x float] addrspace(3)* @tile, i32 0, i32 %id
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %acc = phi float [0.0, %entry], [%acc2, %loop]
  %m = shl i32 %i, 6
  %idx = add i32 %m, %id
  %p = getelementptr float, float addrspace(1)* %in, i32 %idx
  %v = load float, float addrspace(1)* %p
  store float %v, float addrspace(3)* %l
  call void @llvm.amdgcn.s.barrier()
  %x = xor i32 %id, 63
  %lx = getelementptr [64 x float], [64 x float] addrspace(3)* @tile, i32 0, i32 %x
  %w = load float, float addrspace(3)* %lx
  %acc2 = fadd float %acc, %w
  call void @llvm.amdgcn.s.barrier()
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %q = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %acc2, float addrspace(1)* %q
  ret void
}
