#! format=rocm gpu=Iceland
# ROCm settings of GCN 1.5 kernels in the code object v2 descriptor (amd_kernel_code_t):
# `.use_wave32` sets bit 10 of the code properties (offset 0x38: 0x400);
# `.group_segment_fixes_size` (the documentation's spelling) and
# `.private_segment_fixed_size` are the work-group and work-item segment sizes (0x40:
# 16, 0x3c: 32, which also sets RSRC2's scratch bit); COMPUTE_PGM_RSRC3 has no place here, so `.pgmrsrc3` and `.shared_vgprs` are
# ignored with a warning.
.kernel k
  .config
  .pgmrsrc3 1
  .shared_vgprs 4
  .use_wave32
  .group_segment_fixes_size 16
  .private_segment_fixed_size 32
.text
k:  .skip 256
    s_endpgm
