declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k10_atomic_global(i32 addrspace(1)* %out, i32 addrspace(1)* %ctr, i32 addrspace(1)* %hist) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %old = atomicrmw add i32 addrspace(1)* %ctr, i32 1 seq_cst
  %ph = getelementptr i32, i32 addrspace(1)* %hist, i32 %id
  %x = atomicrmw max i32 addrspace(1)* %ph, i32 %old monotonic
  %ph2 = getelementptr i32, i32 addrspace(1)* %hist, i32 64
  atomicrmw or i32 addrspace(1)* %ph2, i32 %id monotonic
  %y = atomicrmw xchg i32 addrspace(1)* %ph, i32 %x acq_rel
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  %s = add i32 %old, %y
  store i32 %s, i32 addrspace(1)* %q
  ret void
}
