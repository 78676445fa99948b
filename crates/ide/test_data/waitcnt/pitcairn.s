# args: -g Pitcairn -b rawcode
# On GCN 1.0 a store reads its data after it issues, counted in expcnt.
        buffer_store_dword v1, v0, s[8:11], 0 offen
        v_mov_b32 v1, 0
        s_waitcnt expcnt(0)
# Reading it is harmless; so is writing the address, read at issue.
        buffer_store_dwordx2 v[2:3], v0, s[8:11], 0 offen
        v_add_f32 v4, v2, v3
        v_mov_b32 v0, 0
        s_waitcnt expcnt(0)
# In order: expcnt(1) leaves the last store, not the one before.
        buffer_store_dword v5, v0, s[8:11], 0 offen
        buffer_store_dword v6, v0, s[8:11], 0 offen offset:4
        s_waitcnt expcnt(1)
        v_mov_b32 v5, 0
        v_mov_b32 v6, 0
        s_waitcnt expcnt(0)
# An atomic: its data is read after issue, the value it returns is loaded.
        buffer_atomic_add v7, v0, s[8:11], 0 offen glc
        v_mov_b32 v8, v7
        s_waitcnt vmcnt(0) expcnt(0)
# An image store.
        image_store v[10:13], v[0:3], s[16:23] dmask:0xf unorm
        v_mov_b32 v12, 0
        s_waitcnt expcnt(0)
# An export's sources, on every generation.
        exp mrt0, v20, v21, v22, v23 done vm
        v_mov_b32 v22, 0
        s_endpgm
