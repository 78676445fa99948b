declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k27_switch(i32 addrspace(1)* %out, i32 addrspace(1)* %in, i32 %sel) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, i32 addrspace(1)* %in, i32 %id
  %v = load i32, i32 addrspace(1)* %p
  switch i32 %sel, label %def [ i32 0, label %a
                                i32 1, label %b
                                i32 2, label %c ]
a:
  %va = add i32 %v, 1
  br label %j
b:
  %pb = getelementptr i32, i32 addrspace(1)* %in, i32 %sel
  %lb = load i32, i32 addrspace(1)* %pb
  %vb = mul i32 %v, %lb
  br label %j
c:
  %vc = shl i32 %v, 3
  br label %j
def:
  %vd = sub i32 0, %v
  br label %j
j:
  %r = phi i32 [%va, %a], [%vb, %b], [%vc, %c], [%vd, %def]
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %r, i32 addrspace(1)* %q
  ret void
}
