declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k26_select(i32 addrspace(1)* %out, float addrspace(1)* %in, float %t) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, float addrspace(1)* %in, i32 %id
  %v = load float, float addrspace(1)* %p
  %c1 = fcmp olt float %v, %t
  %c2 = fcmp ogt float %v, 0.0
  %c = and i1 %c1, %c2
  %r = select i1 %c, i32 1, i32 0
  %r2 = select i1 %c1, i32 5, i32 %id
  %s = add i32 %r, %r2
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s, i32 addrspace(1)* %q
  ret void
}
