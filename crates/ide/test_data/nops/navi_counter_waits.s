# args: -g GFX1010 -b rawcode
# A memory instruction a wait says is done has read its SGPRs: an SALU write after
# it is safe. A load is done after `vmcnt(0)`, a store after `s_waitcnt_vscnt null, 0`,
# an LDS instruction after `lgkmcnt(0)`, a FLAT one after both (as Mesa's ACO counts).
        buffer_load_dword v2, v0, s[8:11], s4 offen
        s_waitcnt vmcnt(0)
        s_mov_b32 s4, 0
        buffer_store_dword v2, v0, s[8:11], s5 offen
        s_waitcnt_vscnt null, 0
        s_mov_b32 s5, 0
        ds_read_b32 v3, v0
        s_waitcnt lgkmcnt(0)
        s_mov_b64 exec, -1
# Waits on the wrong counter: still hazards.
        buffer_store_dword v2, v0, s[8:11], s6 offen
        s_waitcnt vmcnt(0)
        s_mov_b32 s6, 0
        flat_load_dword v4, v[6:7]
        s_waitcnt vmcnt(0)
        s_mov_b64 exec, -1
        v_nop
        flat_load_dword v4, v[6:7]
        s_waitcnt vmcnt(0) lgkmcnt(0)
        s_mov_b64 exec, -1
# A wait for one reader does not cover an older one of another kind.
        buffer_store_dword v2, v0, s[8:11], s7 offen
        buffer_load_dword v2, v0, s[8:11], s7 offen
        s_waitcnt vmcnt(0)
        s_mov_b32 s7, 0
# A wait on one path only: the other path keeps the hazard.
        v_nop
        buffer_load_dword v2, v0, s[8:11], s9 offen
        s_cbranch_scc0 skip
        s_waitcnt vmcnt(0)
skip:
        s_mov_b32 s9, 0
        s_endpgm
