@lds = internal addrspace(3) global [256 x float] undef, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
define amdgpu_kernel void @k03_lds_barrier(float addrspace(1)* %out, float addrspace(1)* %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %id
  %v = load float, float addrspace(1)* %p
  %l = getelementptr [256 x float], [256 x float] addrspace(3)* @lds, i32 0, i32 %id
  store float %v, float addrspace(3)* %l
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %n = add i32 %id, 1
  %n2 = and i32 %n, 255
  %l2 = getelementptr [256 x float], [256 x float] addrspace(3)* @lds, i32 0, i32 %n2
  %w = load float, float addrspace(3)* %l2
  %s = fadd float %v, %w
  %q = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %s, float addrspace(1)* %q
  ret void
}
