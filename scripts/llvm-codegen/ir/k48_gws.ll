; REQUIRES: gfx8
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.ds.gws.init(i32, i32)
declare void @llvm.amdgcn.ds.gws.barrier(i32, i32)
declare i32 @llvm.amdgcn.ds.append.p3i32(i32 addrspace(3)*, i1)
@lds = internal addrspace(3) global [4 x i32] undef, align 4
define amdgpu_kernel void @k48_gws(i32 addrspace(1)* %out, i32 %n, i32 %bar) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  call void @llvm.amdgcn.ds.gws.init(i32 %n, i32 %bar)
  call void @llvm.amdgcn.ds.gws.barrier(i32 %n, i32 0)
  %p = getelementptr [4 x i32], [4 x i32] addrspace(3)* @lds, i32 0, i32 1
  %a = call i32 @llvm.amdgcn.ds.append.p3i32(i32 addrspace(3)* %p, i1 false)
  %q = getelementptr i32, i32 addrspace(1)* %out, i32 %id
  store i32 %a, i32 addrspace(1)* %q
  ret void
}
