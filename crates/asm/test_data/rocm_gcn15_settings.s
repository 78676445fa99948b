#! format=rocm gpu=Iceland
# ROCm pseudo-ops of later CLRX versions that the pseudo-op table lists but this
# assembler does not implement: each is refused with "not supported yet" at its place,
# not taken for an unknown name.
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
