declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k08_ifelse(float addrspace(1)* %out, float addrspace(1)* %a, float addrspace(1)* %b) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr float, float addrspace(1)* %a, i32 %id
  %va = load float, float addrspace(1)* %pa
  %c = fcmp ogt float %va, 0.0
  br i1 %c, label %then, label %else
then:
  %pb = getelementptr float, float addrspace(1)* %b, i32 %id
  %vb = load float, float addrspace(1)* %pb
  %t = fmul float %va, %vb
  br label %join
else:
  %id2 = add i32 %id, 100
  %pb2 = getelementptr float, float addrspace(1)* %b, i32 %id2
  %vb2 = load float, float addrspace(1)* %pb2
  %e = fsub float %vb2, %va
  %pq = getelementptr float, float addrspace(1)* %out, i32 %id2
  store float %e, float addrspace(1)* %pq
  br label %join
join:
  %r = phi float [%t, %then], [%e, %else]
  %q = getelementptr float, float addrspace(1)* %out, i32 %id
  store float %r, float addrspace(1)* %q
  ret void
}
