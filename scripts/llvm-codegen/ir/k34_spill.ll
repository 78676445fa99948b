declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k34_spill(<4 x float> addrspace(1)* %out, <4 x float> addrspace(1)* %in, i32 %n) #0 {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p0 = getelementptr <4 x float>, <4 x float> addrspace(1)* %in, i32 %id
  %a0 = load volatile <4 x float>, <4 x float> addrspace(1)* %p0
  %p1 = getelementptr <4 x float>, <4 x float> addrspace(1)* %p0, i32 64
  %a1 = load volatile <4 x float>, <4 x float> addrspace(1)* %p1
  %p2 = getelementptr <4 x float>, <4 x float> addrspace(1)* %p0, i32 128
  %a2 = load volatile <4 x float>, <4 x float> addrspace(1)* %p2
  %p3 = getelementptr <4 x float>, <4 x float> addrspace(1)* %p0, i32 192
  %a3 = load volatile <4 x float>, <4 x float> addrspace(1)* %p3
  %p4 = getelementptr <4 x float>, <4 x float> addrspace(1)* %p0, i32 256
  %a4 = load volatile <4 x float>, <4 x float> addrspace(1)* %p4
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %acc = phi <4 x float> [zeroinitializer, %entry], [%acc4, %loop]
  %pl = getelementptr <4 x float>, <4 x float> addrspace(1)* %in, i32 %i
  %l = load volatile <4 x float>, <4 x float> addrspace(1)* %pl
  %acc1 = fmul <4 x float> %acc, %l
  %acc2 = fadd <4 x float> %acc1, %a0
  %acc3 = fmul <4 x float> %acc2, %a1
  %acc4 = fadd <4 x float> %acc3, %a2
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %r0 = fadd <4 x float> %acc4, %a3
  %r1 = fadd <4 x float> %r0, %a4
  %q = getelementptr <4 x float>, <4 x float> addrspace(1)* %out, i32 %id
  store <4 x float> %r1, <4 x float> addrspace(1)* %q
  store <4 x float> %a0, <4 x float> addrspace(1)* %p1
  ret void
}
attributes #0 = { "amdgpu-num-vgpr"="12" }
