@lds = internal addrspace(3) global [64 x i32] undef, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
define amdgpu_kernel void @k12_atomic_lds(i32 addrspace(1)* %out, i32 addrspace(1)* %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %id
  %v = load i32, i32 addrspace(1)* %p
  %b = and i32 %v, 63
  %l = getelementptr [64 x i32], [64 x i32] addrspace(3)* @lds, i32 0, i32 %b
  atomicrmw add i32 addrspace(3)* %l, i32 1 monotonic
  %l0 = getelementptr [64 x i32], [64 x i32] addrspace(3)* @lds, i32 0, i32 0
  %o = atomicrmw max i32 addrspace(3)* %l0, i32 %v seq_cst
  call void @llvm.amdgcn.s.barrier()
  %l1 = getelementptr [64 x i32], [64 x i32] addrspace(3)* @lds, i32 0, i32 %id
  %r = load i32, i32 addrspace(3)* %l1
  %x = cmpxchg i32 addrspace(3)* %l1, i32 %r, i32 %o monotonic monotonic
  %xv = extractvalue { i32, i1 } %x, 0
  %s = add i32 %r, %xv
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s, i32 addrspace(1)* %q
  ret void
}
