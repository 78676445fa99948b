#! format=amdcl2 gpu=Bonaire
# Which format pseudo-ops a format has comes from the pseudo-op table: one of another
# format is unknown here, as is a name of no format; `.floatmode` is AMD OpenCL 2.0's
# too (its value is truncated to 8 bits, with a warning).
.kernel k
  .config
  .floatmode 0x1c0
  .FloatMode 0x2c0
  .hsa_dims x
  .calnote 1
  .md_version 1, 0
  .floatmodes 1
