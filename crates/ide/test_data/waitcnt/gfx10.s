# args: -g GFX1010 -b rawcode
# GCN 1.5: stores count in vscnt, so vmcnt(0) after a load waits for the load alone.
        global_load_dword v1, v[2:3], off
        global_store_dword v[2:3], v4, off
        s_waitcnt vmcnt(0)
        v_mov_b32 v5, v1
        global_load_dword v6, v[2:3], off
        s_waitcnt_vmcnt null, 0
        v_mov_b32 v5, v6
        global_load_dword v7, v[2:3], off
        v_mov_b32 v5, v7
        s_waitcnt_vmcnt null, 0
# An export's sources, waited for with s_waitcnt_expcnt: only the first is reported.
        exp mrt0, v20, v21, v22, v23 done vm
        v_mov_b32 v20, 0
        s_waitcnt_expcnt null, 0
        v_mov_b32 v21, 0
# An LDS instruction that goes to GDS reads its address and data after it issues.
        ds_write_b32 v50, v51 gds
        v_mov_b32 v50, 0
        s_waitcnt_expcnt null, 0
        ds_write_b32 v50, v51
        v_mov_b32 v51, 0
        s_endpgm
