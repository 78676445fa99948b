declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k11_atomic_noret(i32 addrspace(1)* %hist, i32 addrspace(1)* %in, i64 addrspace(1)* %big) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %id
  %v = load i32, i32 addrspace(1)* %p
  %b = and i32 %v, 255
  %ph = getelementptr i32, i32 addrspace(1)* %hist, i32 %b
  atomicrmw add i32 addrspace(1)* %ph, i32 1 monotonic
  %e = zext i32 %v to i64
  atomicrmw add i64 addrspace(1)* %big, i64 %e monotonic
  atomicrmw umin i32 addrspace(1)* %hist, i32 %v monotonic
  ret void
}
