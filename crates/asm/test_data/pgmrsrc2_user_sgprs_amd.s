#! format=amd gpu=Pitcairn
# AMD OpenCL 1.2 counts the user SGPRs its `.userdata` declare: 4 here, not 8.
.kernel k
    .config
        .dims x
        .userdata imm_resource, 0, 0, 4
        .pgmrsrc2 0x90
    .text
        s_endpgm
