# args: -g Pitcairn -b rawcode
# GCN 1.0: a scalar memory read of an SGPR a VALU wrote needs 4 wait states.
        v_readfirstlane_b32 s4, v1
        s_buffer_load_dword s5, s[8:11], s4
        s_waitcnt lgkmcnt(0)
# A vector memory read of it does not, before GCN 1.2.
        v_readfirstlane_b32 s4, v1
        buffer_load_dword v2, v0, s[8:11], s4 offen
        s_waitcnt vmcnt(0)
# The lane select of v_readlane_b32 (a VOP2 instruction here).
        v_readfirstlane_b32 s7, v1
        v_readlane_b32 s8, v2, s7
# s_setreg twice: 1 wait state on GCN 1.0.
        s_setreg_b32 hwreg(mode, 0, 4), s2
        s_setreg_b32 hwreg(mode, 0, 4), s3
        s_endpgm
# GCN 1.0 has no hazard for a VALU write of a wide store's data.
        buffer_store_dwordx4 v[4:7], v0, s[8:11], 0 offen
        v_mov_b32 v8, 0
        v_mov_b32 v5, 0
        s_endpgm
# GCN 1.0: `s_buffer_load*` reading an SGPR a scalar ALU instruction wrote (its
# descriptor, made in place) needs 4 too; `s_load*` does not.
        s_mov_b32 s11, 0x27000
        s_buffer_load_dword s5, s[8:11], 0
        s_mov_b32 s3, 0
        s_load_dword s5, s[2:3], 0
        s_waitcnt lgkmcnt(0)
# GCN 1.0: `v_readlane_b32`/`v_readfirstlane_b32` reading a VGPR `v_interp*` wrote just
# before needs 1.
        v_interp_p1_f32 v2, v0, attr0.x
        v_readfirstlane_b32 s1, v2
        v_interp_p1_f32 v3, v0, attr0.x
        v_readlane_b32 s1, v3, 1
        v_interp_p1_f32 v4, v0, attr0.x
        v_writelane_b32 v4, s1, 1
