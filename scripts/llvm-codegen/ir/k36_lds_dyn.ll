@dyn = external addrspace(3) global [0 x i32], align 4
@fix = internal addrspace(3) global [16 x i32] undef, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
define amdgpu_kernel void @k36_lds_dyn(i32 addrspace(1)* %out, i32 %k) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %l = getelementptr [0 x i32], [0 x i32] addrspace(3)* @dyn, i32 0, i32 %id
  store i32 %k, i32 addrspace(3)* %l
  %b = and i32 %id, 15
  %f = getelementptr [16 x i32], [16 x i32] addrspace(3)* @fix, i32 0, i32 %b
  store i32 %id, i32 addrspace(3)* %f
  call void @llvm.amdgcn.s.barrier()
  %x = xor i32 %id, 1
  %l2 = getelementptr [0 x i32], [0 x i32] addrspace(3)* @dyn, i32 0, i32 %x
  %v = load i32, i32 addrspace(3)* %l2
  %l3 = getelementptr [0 x i32], [0 x i32] addrspace(3)* @dyn, i32 0, i32 %k
  %v3 = load i32, i32 addrspace(3)* %l3
  %v4 = load i32, i32 addrspace(3)* %f
  %s = add i32 %v, %v3
  %s2 = add i32 %s, %v4
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s2, i32 addrspace(1)* %q
  ret void
}
