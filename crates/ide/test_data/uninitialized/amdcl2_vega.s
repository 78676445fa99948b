# args: -g GFX900 -b amdcl2 -6
# AMD OpenCL 2.0 on GCN 1.4: the setup fills two more user SGPRs than before (here 10
# with .usesetup), then the work-group id x.
.kernel k
    .config
        .dims x
        .useargs
        .usesetup
        .setupargs
        .arg n, uint
    .text
        s_add_u32 s20, s9, 0
        s_add_u32 s21, s10, 0
        s_add_u32 s22, s11, 0
        s_endpgm
