declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k37_first(i32 addrspace(1)* %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %id, i32 addrspace(1)* %q
  ret void
}
define amdgpu_kernel void @k37_second(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %n) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %id
  %v = load i32, i32 addrspace(1)* %p
  %c = icmp slt i32 %v, %n
  br i1 %c, label %t, label %e
t:
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %v
  store i32 %id, i32 addrspace(1)* %q
  br label %e
e:
  ret void
}
