declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k56_vccz_uniform(float addrspace(1)* %out, float %a, float %b, float addrspace(4)* %c) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %cmp = fcmp olt float %a, %b
  br i1 %cmp, label %t, label %e
t:
  %pc = getelementptr float, float addrspace(4)* %c, i32 3
  %v = load float, float addrspace(4)* %pc
  %cmp2 = fcmp ogt float %v, %a
  br i1 %cmp2, label %t2, label %e
t2:
  %q2 = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %v, float addrspace(1)* %q2
  br label %e
e:
  %q = getelementptr float, float addrspace(1)* %out, i32 0
  store float %a, float addrspace(1)* %q
  ret void
}
