; REQUIRES: gfx10
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.permlane16(i32, i32, i32, i32, i1, i1)
declare i32 @llvm.amdgcn.permlanex16(i32, i32, i32, i32, i1, i1)
define amdgpu_kernel void @k54_permlane(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %s1, i32 %s2) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %id
  %v = load i32, i32 addrspace(1)* %p
  %c = icmp ugt i32 %v, 10
  br i1 %c, label %t, label %e
t:
  %a = call i32 @llvm.amdgcn.permlane16(i32 %v, i32 %v, i32 %s1, i32 %s2, i1 false, i1 false)
  %b = call i32 @llvm.amdgcn.permlanex16(i32 %a, i32 %a, i32 %s2, i32 %s1, i1 true, i1 false)
  br label %e
e:
  %r = phi i32 [%v, %entry], [%b, %t]
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %r, i32 addrspace(1)* %q
  ret void
}
