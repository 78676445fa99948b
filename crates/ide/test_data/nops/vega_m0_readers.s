# args: -g gfx900 -b rawcode
# GCN 1.4: also LDS instructions that add the lane's id to the address, loads into LDS
# and an operand `lds_direct` read M0 and need 1 wait state after a scalar ALU wrote it.
        s_mov_b32 m0, s2
        ds_read_addtid_b32 v1
        s_mov_b32 m0, s2
        ds_write_addtid_b32 v1 offset:16
        s_mov_b32 m0, s2
        buffer_load_dword v0, s[8:11], 0 lds
        s_mov_b32 m0, s2
        global_load_dword v1, v[2:3], off lds
        s_mov_b32 m0, s2
        v_mov_b32 v4, lds_direct
        s_mov_b32 m0, s2
        v_add_f32 v4, lds_direct, v4
# As on GCN 1.2: GDS, and s_movrel and v_interp from GCN 1.4.
        s_mov_b32 m0, s2
        ds_add_u32 v0, v1 gds
        s_mov_b32 m0, s2
        s_movrels_b32 s0, s1
        s_mov_b32 m0, s2
        v_interp_p1_f32 v0, v1, attr0.x
# A load from global memory into VGPRs: no hazard.
        s_mov_b32 m0, s2
        buffer_load_dword v0, s[8:11], 0
        s_mov_b32 m0, s2
        v_mov_b32 v4, v5
# `buffer_store_lds_dword` stores from LDS at M0, written with `lds` or not.
        s_mov_b32 m0, s2
        buffer_store_lds_dword s[8:11], 0
        s_endpgm
