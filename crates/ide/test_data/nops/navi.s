# args: -g GFX1010 -b rawcode
# GCN 1.5's own hazards, each then mitigated.
# An SALU write of an SGPR a vector memory instruction read.
        buffer_load_dword v2, v0, s[8:11], s4 offen
        s_mov_b32 s4, 0
        buffer_load_dword v2, v0, s[8:11], s4 offen
        v_nop
        s_mov_b32 s4, 0
        buffer_load_dword v2, v0, s[8:11], s4 offen
        s_waitcnt_decptr 0xffe3
        s_mov_b32 s4, 0
        s_waitcnt 0
# A VALU write of an SGPR a scalar memory instruction read.
        s_load_dword s6, s[2:3], 0
        v_readfirstlane_b32 s2, v1
        s_load_dword s6, s[2:3], 0
        s_mov_b32 null, 0
        v_readfirstlane_b32 s2, v1
        s_load_dword s6, s[2:3], 0
        s_waitcnt lgkmcnt(0)
        v_readfirstlane_b32 s2, v1
# A VALU write of EXEC after another kind of instruction read it.
        s_mov_b32 s7, exec_lo
        v_cmpx_lt_f32 v1, v2
        s_mov_b32 s7, exec_lo
        v_cmp_lt_f32 vcc, v1, v2
        v_cmpx_lt_f32 v1, v2
# A permute after v_cmpx.
        v_cmpx_lt_f32 v1, v2
        v_nop
        v_permlane16_b32 v3, v4, s0, s1
        v_cmpx_lt_f32 v1, v2
        v_mov_b32 v9, 0
        v_permlane16_b32 v3, v4, s0, s1
# LDS, a branch, then vector memory.
        ds_read_b32 v5, v0
        s_cbranch_scc0 next
next:
        buffer_load_dword v6, v0, s[8:11], 0 offen
        ds_read_b32 v5, v0
        s_waitcnt_vscnt null, 0
        s_cbranch_scc0 next2
next2:
        buffer_load_dword v6, v0, s[8:11], 0 offen
        s_endpgm
