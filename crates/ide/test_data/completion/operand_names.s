.gpu Tonga
        s_getreg_b32    s1, hwreg($0
        s_getreg_b32    s1, hwreg(tr$0
        s_setreg_b32    hwreg(mode, 0, 4), s2
        s_sendmsg       sendmsg($0
        s_sendmsg       sendmsg(gs, e$0
        v_add_f32       v1, v2, v3 dst_sel:$0
        v_add_f32       v1, v2, v3 dst_unused:$0
        tbuffer_load_format_x v1, v0, s[8:11], 0 format:[$0
        tbuffer_load_format_x v1, v0, s[8:11], 0 format:[32, $0
        s_waitcnt       $0
        s_waitcnt       vmcnt(0) & lg$0
        s_getreg_b32    s1, $0
        s_sendmsg       $0
        s_set_gpr_idx_on s1, gpr_idx($0
.gpu GFX1010
        s_getreg_b32    s1, hwreg(flat$0
