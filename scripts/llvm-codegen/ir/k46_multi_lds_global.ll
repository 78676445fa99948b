@t = internal addrspace(3) global [1024 x float] undef, align 16
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare void @llvm.amdgcn.s.barrier()
define amdgpu_kernel void @k46_multi_lds_global(float addrspace(1)* %out, float addrspace(1)* %in, i32 %w) {
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %y = call i32 @llvm.amdgcn.workitem.id.y()
  %r = mul i32 %y, %w
  %i = add i32 %r, %x
  %p = getelementptr float, float addrspace(1)* %in, i32 %i
  %v = load float, float addrspace(1)* %p
  %p2 = getelementptr float, float addrspace(1)* %p, i32 1
  %v2 = load float, float addrspace(1)* %p2
  %li = mul i32 %y, 33
  %li2 = add i32 %li, %x
  %l = getelementptr [1024 x float], [1024 x float] addrspace(3)* @t, i32 0, i32 %li2
  store float %v, float addrspace(3)* %l
  %l1 = getelementptr float, float addrspace(3)* %l, i32 1
  store float %v2, float addrspace(3)* %l1
  call void @llvm.amdgcn.s.barrier()
  %ti = mul i32 %x, 33
  %ti2 = add i32 %ti, %y
  %lt = getelementptr [1024 x float], [1024 x float] addrspace(3)* @t, i32 0, i32 %ti2
  %tv = load float, float addrspace(3)* %lt
  %lt2 = getelementptr float, float addrspace(3)* %lt, i32 2
  %tv2 = load float, float addrspace(3)* %lt2
  %s = fadd float %tv, %tv2
  %oi = mul i32 %x, %w
  %oi2 = add i32 %oi, %y
  %q = getelementptr float, float addrspace(1)* %out, i32 %oi2
  store float %s, float addrspace(1)* %q
  ret void
}
