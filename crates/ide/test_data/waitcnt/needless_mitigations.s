# args: -g GFX1010 -b rawcode
# A wait that a hazard rule needs is not needless, though it never stops the wave:
# taking it out would make the hazard. `s_waitcnt_vscnt null, 0` between LDS and
# vector memory across a branch (as LLVM writes it after a loop):
        v_mov_b32 v4, 0
        s_cmp_eq_u32 s2, 0
loop:
        ds_read_b32 v1, v0
        s_waitcnt lgkmcnt(0)
        v_add_f32 v4, v4, v1
        s_cbranch_scc1 loop
        s_waitcnt_vscnt null, 0
        global_store_dword v0, v4, s[0:1]
        s_endpgm
# Between a vector memory read of an SGPR and a scalar write of it, `s_waitcnt 0`
# would end the hazard, but `vmcnt(0)` already says the load is done: needless.
        buffer_load_dword v1, v0, s[4:7], 0 offen
        s_waitcnt vmcnt(0)
        s_waitcnt 0
        s_mov_b32 s4, 0
        s_endpgm
# No hazard behind it: needless.
        s_waitcnt_vscnt null, 0
        global_store_dword v0, v4, s[0:1]
        s_endpgm
