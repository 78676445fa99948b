declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k44_vcc_loop(i32 addrspace(1)* %out, i32 addrspace(4)* %tab, i32 %n) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %body]
  %acc = phi i32 [0, %entry], [%acc1, %body]
  %pt = getelementptr i32, i32 addrspace(4)* %tab, i32 %i
  %t = load i32, i32 addrspace(4)* %pt
  %c = icmp eq i32 %t, 0
  br i1 %c, label %exit, label %body
body:
  %m = mul i32 %t, %id
  %acc1 = add i32 %acc, %m
  %i1 = add i32 %i, 1
  %cc = icmp slt i32 %i1, %n
  br i1 %cc, label %loop, label %exit
exit:
  %r = phi i32 [%acc, %loop], [%acc1, %body]
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %r, i32 addrspace(1)* %q
  ret void
}
