declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
define amdgpu_kernel void @k04_uniform_args(float addrspace(1)* %y, float addrspace(1)* %x, float %a, i32 %n, i32 %off) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gid = call i32 @llvm.amdgcn.workgroup.id.x()
  %g = mul i32 %gid, 256
  %i = add i32 %g, %tid
  %c = icmp ult i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %j = add i32 %i, %off
  %px = getelementptr float, float addrspace(1)* %x, i32 %j
  %py = getelementptr float, float addrspace(1)* %y, i32 %i
  %vx = load float, float addrspace(1)* %px
  %vy = load float, float addrspace(1)* %py
  %r = call float @llvm.fma.f32(float %a, float %vx, float %vy)
  store float %r, float addrspace(1)* %py
  br label %end
end:
  ret void
}
declare float @llvm.fma.f32(float, float, float)
