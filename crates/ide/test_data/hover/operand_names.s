# hover on the names operands take: hwreg, sendmsg, s_waitcnt counters, lit, SDWA, MTBUF formats
.gpu Tonga
        s_getreg_b32    s43, hw$0reg(trap$0sts, 3, 10)
        s_setreg_b32    hwreg(HWREG_M$0ODE, 0, 4), s2
        s_getreg_b32    s1, hwreg(flat_$0scr_lo, 0, 32)
        s_waitcnt       vm$0cnt(0) & lgkm$0cnt(1) exp$0cnt(7)
        s_sendmsg       send$0msg(g$0s, em$0it, 1)
        s_sendmsg       sendmsg(msg_gs_d$0one)
        s_add_u32       s21, s4, l$0it(-16)
        v_add_f32       v1, v2, v3 dst_sel:byt$0e0 dst_unused:pre$0serve src0_sel:wo$0rd1
        tbuffer_load_format_x v1, v0, s[8:11], 0 offen format:[3$02, flo$0at]
        s_set_gpr_idx_on s1, gpr_idx(sr$0c0, dst)
NOTNAME = 1
        s_add_u32       s1, s2, NOTN$0AME
.gpu GFX1010
        s_waitcnt       lgkm$0cnt(0)
        s_getreg_b32    s1, hwreg(flat_$0scr_lo, 0, 32)
        global_load_dword v1, v[2:3], o$0ff
