declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane(i32)
define amdgpu_kernel void @k50_sload_from_vgpr(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 addrspace(4)* %tab) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %id
  %v = load i32, i32 addrspace(1)* %p
  %u = call i32 @llvm.amdgcn.readfirstlane(i32 %v)
  %pt = getelementptr i32, i32 addrspace(4)* %tab, i32 %u
  %t = load i32, i32 addrspace(4)* %pt, !invariant.load !0
  %u2 = call i32 @llvm.amdgcn.readfirstlane(i32 %id)
  %pt2 = getelementptr i32, i32 addrspace(4)* %tab, i32 %u2
  %t2 = load i32, i32 addrspace(4)* %pt2, !invariant.load !0
  %s = add i32 %t, %t2
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s, i32 addrspace(1)* %q
  ret void
}
!0 = !{}
