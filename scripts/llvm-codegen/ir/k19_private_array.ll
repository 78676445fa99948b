declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k19_private_array(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %k) {
entry:
  %arr = alloca [32 x i32], align 4, addrspace(5)
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  br label %fill
fill:
  %i = phi i32 [0, %entry], [%i1, %fill]
  %pi = getelementptr i32, i32 addrspace(1)* %in, i32 %i
  %v = load i32, i32 addrspace(1)* %pi
  %v2 = add i32 %v, %id
  %pa = getelementptr [32 x i32], [32 x i32] addrspace(5)* %arr, i32 0, i32 %i
  store volatile i32 %v2, i32 addrspace(5)* %pa
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 32
  br i1 %c, label %fill, label %done
done:
  %idx = and i32 %id, 31
  %pr = getelementptr [32 x i32], [32 x i32] addrspace(5)* %arr, i32 0, i32 %idx
  %r = load volatile i32, i32 addrspace(5)* %pr
  %idx2 = xor i32 %idx, %k
  %idx3 = and i32 %idx2, 31
  %pr2 = getelementptr [32 x i32], [32 x i32] addrspace(5)* %arr, i32 0, i32 %idx3
  %r2 = load volatile i32, i32 addrspace(5)* %pr2
  %s = add i32 %r, %r2
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %s, i32 addrspace(1)* %q
  ret void
}
