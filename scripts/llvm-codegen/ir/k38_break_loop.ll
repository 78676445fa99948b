declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k38_break_loop(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %i = phi i32 [%id, %entry], [%i1, %cont]
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %i
  %v = load i32, i32 addrspace(1)* %p
  %z = icmp eq i32 %v, 0
  br i1 %z, label %found, label %cont
cont:
  %i1 = add i32 %i, 64
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %notfound
found:
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %i, i32 addrspace(1)* %q
  br label %end
notfound:
  %q2 = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 -1, i32 addrspace(1)* %q2
  br label %end
end:
  ret void
}
