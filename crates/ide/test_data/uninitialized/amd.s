# args: -g Pitcairn -b amd
# AMD OpenCL 1.2: each kernel in its own code section; the user data it declares is
# filled, then the work-group ids.
.kernel k
    .config
        .dims xy
        .userdata ptr_uav_table, 0, 2, 2
        .userdata imm_const_buffer, 0, 4, 4
    .text
        s_mov_b64 s[12:13], s[2:3]
        s_mov_b32 s14, s8
        s_mov_b32 s15, s9
        s_mov_b32 s16, s10
        v_mov_b32 v2, v1
        v_mov_b32 v3, v2
        v_mov_b32 v4, v5
        s_endpgm
