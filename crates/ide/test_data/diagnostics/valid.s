.amd
.gpu Bonaire
.kernel k
    .config
        .dims x
    .text
k:  s_mov_b32 s0, 1+2*3   # a comment
    v_add_f32 v1, v2, v3
    .int 1, 2, (3+4)
    s_endpgm
