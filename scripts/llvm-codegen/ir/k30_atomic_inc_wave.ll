declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k30_atomic_inc_wave(i32 addrspace(1)* %out, i32 addrspace(1)* %ctr) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %old = atomicrmw add i32 addrspace(1)* %ctr, i32 1 monotonic
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %old
  store i32 %id, i32 addrspace(1)* %q
  ret void
}
