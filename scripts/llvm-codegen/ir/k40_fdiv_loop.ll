declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k40_fdiv_loop(float addrspace(1)* %out, float addrspace(1)* %in, i32 %n) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %id
  %x = load float, float addrspace(1)* %p
  %lim = and i32 %id, 7
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %acc = phi float [1.0, %entry], [%acc1, %loop]
  %fi = sitofp i32 %i to float
  %d = fadd float %fi, %x
  %q = fdiv float %acc, %d
  %acc1 = fadd float %q, 0.5
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %lim
  br i1 %c, label %loop, label %exit
exit:
  %o = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %acc1, float addrspace(1)* %o
  ret void
}
