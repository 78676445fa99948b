# args: -g Fiji -b rocm
# ROCm: the kernel starts past its 256-byte descriptor; its setup fills the user SGPRs
# the descriptor enables (here the kernarg pointer, s0–s1), then the work-group id x.
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_load_dwordx2 s[4:5], s[0:1], 0
        s_add_u32 s6, s2, 0
        s_add_u32 s7, s3, 0
        v_add_f32 v1, v0, v0
        s_endpgm
