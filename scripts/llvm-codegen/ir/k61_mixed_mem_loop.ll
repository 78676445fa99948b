@sh = internal addrspace(3) global [128 x i32] undef, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
define amdgpu_kernel void @k61_mixed_mem_loop(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 addrspace(4)* %k, i32 %n) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %l = getelementptr [128 x i32], [128 x i32] addrspace(3)* @sh, i32 0, i32 %id
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %latch]
  %acc = phi i32 [0, %entry], [%acc2, %latch]
  %pk = getelementptr i32, i32 addrspace(4)* %k, i32 %i
  %kv = load i32, i32 addrspace(4)* %pk
  %idx = add i32 %kv, %id
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %idx
  %v = load i32, i32 addrspace(1)* %p
  %odd = and i32 %v, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %even, label %latch
even:
  %old = atomicrmw add i32 addrspace(3)* %l, i32 %v monotonic
  %po = getelementptr i32, i32 addrspace(1)* %out, i32 %idx
  store i32 %old, i32 addrspace(1)* %po
  br label %latch
latch:
  %x = phi i32 [%v, %loop], [%old, %even]
  %acc2 = add i32 %acc, %x
  %i1 = add i32 %i, 1
  %cc = icmp slt i32 %i1, %n
  br i1 %cc, label %loop, label %exit
exit:
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %acc2, i32 addrspace(1)* %q
  ret void
}
