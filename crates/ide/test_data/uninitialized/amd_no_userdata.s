# args: -g Pitcairn -b amd
# AMD OpenCL 1.2 with no user data declared: the binary asks for 2 user SGPRs; v0 is
# always the work-item id x.
.kernel k
    .config
        .dims x
    .text
        s_and_b64 s[4:5], s[0:1], -1
        s_add_u32 s6, s2, 0
        s_add_u32 s7, s3, 0
        v_add_f32 v1, v0, v0
        s_endpgm
