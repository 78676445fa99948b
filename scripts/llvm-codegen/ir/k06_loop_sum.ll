declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k06_loop_sum(float addrspace(1)* %out, float addrspace(1)* %in, i32 %n, i32 %stride) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %acc = phi float [0.0, %entry], [%acc1, %loop]
  %m = mul i32 %i, %stride
  %idx = add i32 %m, %id
  %p = getelementptr float, float addrspace(1)* %in, i32 %idx
  %v = load float, float addrspace(1)* %p
  %acc1 = fadd float %acc, %v
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = phi float [0.0, %entry], [%acc1, %loop]
  %q = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %r, float addrspace(1)* %q
  ret void
}
