# The AMD OpenCL 1.2 format has no device code for GCN 1.4.
.amd
.gpu GFX900
.kernel k
    .config
        .dims x
.text
k:
    s_endpgm
