declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workitem.id.z()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
define amdgpu_kernel void @k18_ids(i32 addrspace(1)* %out) {
  %tx = call i32 @llvm.amdgcn.workitem.id.x()
  %ty = call i32 @llvm.amdgcn.workitem.id.y()
  %tz = call i32 @llvm.amdgcn.workitem.id.z()
  %gx = call i32 @llvm.amdgcn.workgroup.id.x()
  %gy = call i32 @llvm.amdgcn.workgroup.id.y()
  %gz = call i32 @llvm.amdgcn.workgroup.id.z()
  %a = mul i32 %gz, 7
  %b = add i32 %a, %gy
  %c = mul i32 %b, 13
  %d = add i32 %c, %gx
  %e = mul i32 %tz, 16
  %f = add i32 %e, %ty
  %g = mul i32 %f, 16
  %h = add i32 %g, %tx
  %i = mul i32 %d, 4096
  %j = add i32 %i, %h
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %j
  store i32 %d, i32 addrspace(1)* %q
  ret void
}
define amdgpu_kernel void @k18_ids_yonly(i32 addrspace(1)* %out) {
  %ty = call i32 @llvm.amdgcn.workitem.id.y()
  %gy = call i32 @llvm.amdgcn.workgroup.id.y()
  %j = add i32 %gy, %ty
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %j
  store i32 %gy, i32 addrspace(1)* %q
  ret void
}
