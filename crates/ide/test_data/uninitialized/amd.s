# args: -g Pitcairn -b amd
# AMD OpenCL 1.2: each kernel in its own code section; the user data it declares is
# filled, then the work-group ids.
.kernel k
    .config
        .dims xy
        .userdata ptr_uav_table, 0, 2, 2
        .userdata imm_const_buffer, 0, 4, 4
    .text
        s_and_b64 s[12:13], s[2:3], -1
        s_add_u32 s14, s8, 0
        s_add_u32 s15, s9, 0
        s_add_u32 s16, s10, 0
        v_add_f32 v2, v1, v1
        v_add_f32 v3, v2, v2
        v_add_f32 v4, v5, v5
        s_endpgm
