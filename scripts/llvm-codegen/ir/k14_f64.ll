declare i32 @llvm.amdgcn.workitem.id.x()
declare double @llvm.sqrt.f64(double)
declare double @llvm.floor.f64(double)
define amdgpu_kernel void @k14_f64(double addrspace(1)* %out, double addrspace(1)* %a, double %k) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr double, double addrspace(1)* %a, i32 %id
  %va = load double, double addrspace(1)* %pa
  %d = fdiv double %va, %k
  %s = call double @llvm.sqrt.f64(double %d)
  %f = call double @llvm.floor.f64(double %s)
  %m = fmul double %f, %va
  %q = getelementptr double, double addrspace(1)* %out, i32 %id
  store double %m, double addrspace(1)* %q
  ret void
}
