# An AMD OpenCL 1.2 kernel
.amd
.gpu Pitcairn
.kernel k
    .config
        .dims x
    .text
        s_endpgm
