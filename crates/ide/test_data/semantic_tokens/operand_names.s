# the names operands take are not symbols: hardware registers, messages, GS operations,
# SDWA selections, MTBUF formats; the functions are modifiers-like words
.gpu Tonga
        s_getreg_b32    s43, hwreg(trapsts, 3, 10)
        s_waitcnt       vmcnt(0) & lgkmcnt(1)
        s_sendmsg       sendmsg(gs, emit, 1)
        s_add_u32       s21, s4, lit(-16)
        v_add_f32       v1, v2, v3 dst_sel:byte0 dst_unused:preserve src0_sel:word1
        tbuffer_load_format_x v1, v0, s[8:11], 0 offen format:[32, float]
        s_set_gpr_idx_on s1, gpr_idx(src0, dst)
trapsts = 5
        s_add_u32       s1, s2, trapsts
        global_load_dword v1, v[2:3], off
