# args: -g Pitcairn -b amd
# AMD OpenCL 1.2 with no user data declared: the binary asks for 2 user SGPRs; v0 is
# always the work-item id x.
.kernel k
    .config
        .dims x
    .text
        s_mov_b64 s[4:5], s[0:1]
        s_mov_b32 s6, s2
        s_mov_b32 s7, s3
        v_mov_b32 v1, v0
        s_endpgm
