; REQUIRES: gfx8
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k32_half(half addrspace(1)* %out, half addrspace(1)* %in, <2 x half> addrspace(1)* %vin) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr half, half addrspace(1)* %in, i32 %id
  %v = load half, half addrspace(1)* %p
  %pv = getelementptr <2 x half>, <2 x half> addrspace(1)* %vin, i32 %id
  %w = load <2 x half>, <2 x half> addrspace(1)* %pv
  %w2 = fmul <2 x half> %w, %w
  %e0 = extractelement <2 x half> %w2, i32 0
  %e1 = extractelement <2 x half> %w2, i32 1
  %m = fmul half %v, %e0
  %s = fadd half %m, %e1
  %q = getelementptr half, half addrspace(1)* %out, i32 %id
  store half %s, half addrspace(1)* %q
  ret void
}
