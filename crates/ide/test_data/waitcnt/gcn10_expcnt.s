# args: -g Pitcairn -b rawcode
# On GCN 1.0 a vector memory store or atomic reads its data after it issues, counted
# in `expcnt`; so does an atomic that returns the old value (`glc`), whose data
# registers are also its destination.
        buffer_atomic_or v0, off, s[0:3], 0
        buffer_atomic_add v1, off, s[0:3], 0 glc
        s_waitcnt expcnt(1)
        v_mov_b32 v0, 0
        s_waitcnt vmcnt(0)
        s_endpgm
        buffer_atomic_add v1, off, s[0:3], 0 glc
        v_mov_b32 v1, 0
        s_endpgm
# A store `vmcnt` says is done has read its data: no `expcnt` wait needed.
        buffer_store_dword v0, off, s[0:3], 0
        s_waitcnt vmcnt(0)
        v_mov_b32 v0, 0
        s_endpgm
