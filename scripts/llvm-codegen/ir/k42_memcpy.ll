declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.memcpy.p1i8.p1i8.i64(i8 addrspace(1)*, i8 addrspace(1)*, i64, i1)
define amdgpu_kernel void @k42_memcpy(i8 addrspace(1)* %dst, i8 addrspace(1)* %src) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %o = mul i32 %id, 96
  %d = getelementptr i8, i8 addrspace(1)* %dst, i32 %o
  %s = getelementptr i8, i8 addrspace(1)* %src, i32 %o
  call void @llvm.memcpy.p1i8.p1i8.i64(i8 addrspace(1)* align 4 %d, i8 addrspace(1)* align 4 %s, i64 96, i1 false)
  ret void
}
