declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.s.getreg(i32)
declare void @llvm.amdgcn.s.setreg(i32, i32)
define amdgpu_kernel void @k47_getreg(i32 addrspace(1)* %out, i32 %m) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %a = call i32 @llvm.amdgcn.s.getreg(i32 63489)
  call void @llvm.amdgcn.s.setreg(i32 6145, i32 %m)
  %b = call i32 @llvm.amdgcn.s.getreg(i32 6145)
  %c = call i32 @llvm.amdgcn.s.getreg(i32 7)
  %s = add i32 %a, %b
  %s2 = add i32 %s, %c
  %s3 = add i32 %s2, %id
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s3, i32 addrspace(1)* %q
  call void @llvm.amdgcn.s.setreg(i32 2049, i32 3)
  ret void
}
