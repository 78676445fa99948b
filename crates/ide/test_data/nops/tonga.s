# args: -g Tonga -b rawcode
# A vector memory instruction reading an SGPR a VALU wrote needs 5 wait states.
        v_readfirstlane_b32 s4, v1
        buffer_load_dword v2, v0, s[8:11], s4 offen
        s_waitcnt vmcnt(0)
# Given by s_nop: nothing to report.
        v_readfirstlane_b32 s4, v1
        s_nop 4
        buffer_load_dword v2, v0, s[8:11], s4 offen
        s_waitcnt vmcnt(0)
# Partly given: two instructions and s_nop 1 make 4.
        v_readfirstlane_b32 s5, v1
        s_mov_b32 s6, 0
        s_nop 1
        v_mov_b32 v3, 0
        buffer_load_dword v2, v0, s[8:11], s5 offen
        s_waitcnt vmcnt(0)
# Written by a SALU instruction: no hazard.
        s_mov_b32 s4, 0
        buffer_load_dword v2, v0, s[8:11], s4 offen
        s_waitcnt vmcnt(0)
# v_div_fmas after a VALU wrote VCC.
        v_div_scale_f32 v4, vcc, v1, v2, v1
        v_div_fmas_f32 v5, v4, v2, v1
# The lane select of v_readlane_b32.
        v_readfirstlane_b32 s7, v1
        v_readlane_b32 s8, v2, s7
# DPP: a VGPR written just before, and EXEC written by a VALU.
        v_mov_b32 v6, 1
        v_mov_b32_dpp v7, v6 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
        v_cmpx_lt_f32 vcc, v1, v2
        s_nop 1
        v_mov_b32_dpp v8, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
# s_setreg then s_getreg of the same register; another register is fine.
        s_setreg_b32 hwreg(mode, 0, 4), s2
        s_getreg_b32 s3, hwreg(mode, 0, 4)
        s_setreg_b32 hwreg(mode, 0, 4), s2
        s_getreg_b32 s3, hwreg(trapsts, 0, 4)
# s_sendmsg after a SALU wrote M0.
        s_mov_b32 m0, s2
        s_sendmsg sendmsg(MSG_INTERRUPT)
# Through an unconditional branch: the branch is one wait state.
        v_readfirstlane_b32 s4, v1
        s_branch next
next:
        buffer_load_dword v2, v0, s[8:11], s4 offen
        s_endpgm
# s_rfe_b64 after s_setreg of TRAPSTS.
        s_setreg_b32 hwreg(trapsts, 0, 32), s2
        s_rfe_b64 s[0:1]
# A VALU write of a wide store's data: after a 16-byte store with a constant SOFFSET,
# a FLAT store of 12 bytes; not after an 8-byte one or with an SGPR SOFFSET.
        buffer_store_dwordx4 v[4:7], v0, s[8:11], 0 offen
        v_mov_b32 v5, 0
        flat_store_dwordx3 v[2:3], v[8:10]
        v_add_f32 v10, v1, v1
        buffer_store_dwordx2 v[4:5], v0, s[8:11], 0 offen
        v_mov_b32 v5, 0
        buffer_store_dwordx4 v[4:7], v0, s[8:11], s1 offen
        v_mov_b32 v5, 0
        buffer_store_dwordx4 v[4:7], v0, s[8:11], 0 offen
        s_nop 0
        v_mov_b32 v5, 0
        s_endpgm
# An atomic's data counts as a store's, returned (`glc`) or not.
        buffer_atomic_cmpswap_x2 v[4:7], v0, s[8:11], 0 offen glc
        v_mov_b32 v5, 0
        s_waitcnt vmcnt(0)
