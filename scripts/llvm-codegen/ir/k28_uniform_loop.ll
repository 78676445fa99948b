declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k28_uniform_loop(float addrspace(1)* %out, float addrspace(4)* %coef, float addrspace(1)* %in, i32 %n) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %id
  %x = load float, float addrspace(1)* %p
  %cn = icmp sgt i32 %n, 0
  br i1 %cn, label %loop, label %exit
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %acc = phi float [0.0, %entry], [%acc1, %loop]
  %pc = getelementptr float, float addrspace(4)* %coef, i32 %i
  %c = load float, float addrspace(4)* %pc
  %acc1 = call float @llvm.fma.f32(float %acc, float %x, float %c)
  %i1 = add i32 %i, 1
  %cc = icmp slt i32 %i1, %n
  br i1 %cc, label %loop, label %exit
exit:
  %r = phi float [0.0, %entry], [%acc1, %loop]
  %q = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %r, float addrspace(1)* %q
  ret void
}
declare float @llvm.fma.f32(float, float, float)
