# args: -g Pitcairn -b amd
# AMD OpenCL 1.2: the user data declared, by data class and API slot.
.kernel k
    .config
        .dims x
        .userdata ptr_uav_table, 0, 2, 2
        .userdata imm_const_buffer, 1, 4, 4
    .text
        s_mov_b64 s[12:13], s$0[2:3]
        s_load_dwordx4 s[16:19], s$0[4:7], 0
        s_mov_b32 s20, s$00
        s_endpgm
