declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.sendmsg(i32, i32)
declare void @llvm.amdgcn.s.sleep(i32)
declare i64 @llvm.amdgcn.s.memtime()
define amdgpu_kernel void @k22_sendmsg(i64 addrspace(1)* %out, i32 %m) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %t0 = call i64 @llvm.amdgcn.s.memtime()
  call void @llvm.amdgcn.s.sendmsg(i32 1, i32 %m)
  call void @llvm.amdgcn.s.sleep(i32 2)
  %t1 = call i64 @llvm.amdgcn.s.memtime()
  %d = sub i64 %t1, %t0
  %q = getelementptr i64, i64 addrspace(1)* %out, i32 %id
  store i64 %d, i64 addrspace(1)* %q
  call void @llvm.amdgcn.s.sendmsg(i32 3, i32 0)
  ret void
}
