declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k07_loop_carried(float addrspace(1)* %out, float addrspace(1)* %in, i32 %n) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p0 = getelementptr float, float addrspace(1)* %in, i32 %id
  %v0 = load float, float addrspace(1)* %p0
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %cur = phi float [%v0, %entry], [%next, %loop]
  %acc = phi float [0.0, %entry], [%acc1, %loop]
  %i1 = add i32 %i, 1
  %m = mul i32 %i1, 64
  %idx = add i32 %m, %id
  %p = getelementptr float, float addrspace(1)* %in, i32 %idx
  %next = load volatile float, float addrspace(1)* %p
  %acc1 = fmul float %acc, %cur
  %q = getelementptr float, float addrspace(1)* %out, i32 %idx
  store float %acc1, float addrspace(1)* %q
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %q2 = getelementptr float, float addrspace(1)* %out, i32 %id
  %f = fadd float %acc1, %next
  store float %f, float addrspace(1)* %q2
  ret void
}
