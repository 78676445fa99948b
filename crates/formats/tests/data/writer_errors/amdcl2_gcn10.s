# AMD OpenCL 2.0 binaries are for GCN 1.1 and later.
.amdcl2
.gpu Pitcairn
.kernel k
    .config
        .dims x
.text
k:
    s_endpgm
