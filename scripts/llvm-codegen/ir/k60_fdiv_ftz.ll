declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k60_fdiv_ftz(float addrspace(1)* %out, float addrspace(1)* %a, float %d) #0 {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr float, float addrspace(1)* %a, i32 %id
  %va = load float, float addrspace(1)* %pa
  %q = fdiv float %va, %d
  %c = fcmp ogt float %q, 1.0
  br i1 %c, label %t, label %e
t:
  %q2 = fdiv float %q, %va
  br label %e
e:
  %r = phi float [%q, %entry], [%q2, %t]
  %po = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %r, float addrspace(1)* %po
  ret void
}
attributes #0 = { "denormal-fp-math-f32"="preserve-sign,preserve-sign" }
