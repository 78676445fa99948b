@lds = internal addrspace(3) global [512 x float] undef, align 16
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
define amdgpu_kernel void @k55_ds_read2(<4 x float> addrspace(1)* %out, float addrspace(1)* %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %id
  %v = load float, float addrspace(1)* %p
  %l = getelementptr [512 x float], [512 x float] addrspace(3)* @lds, i32 0, i32 %id
  store float %v, float addrspace(3)* %l
  %l2 = getelementptr float, float addrspace(3)* %l, i32 256
  store float %v, float addrspace(3)* %l2
  call void @llvm.amdgcn.s.barrier()
  %i4 = shl i32 %id, 2
  %lv = getelementptr [512 x float], [512 x float] addrspace(3)* @lds, i32 0, i32 %i4
  %lvv = bitcast float addrspace(3)* %lv to <4 x float> addrspace(3)*
  %w = load <4 x float>, <4 x float> addrspace(3)* %lvv, align 16
  %a = load float, float addrspace(3)* %l
  %b = load float, float addrspace(3)* %l2
  %ab = fadd float %a, %b
  %w2 = insertelement <4 x float> %w, float %ab, i32 1
  %q = getelementptr <4 x float>, <4 x float> addrspace(1)* %out, i32 %id
  store <4 x float> %w2, <4 x float> addrspace(1)* %q
  ret void
}
