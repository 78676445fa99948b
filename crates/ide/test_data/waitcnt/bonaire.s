# args: -g Bonaire -b rawcode
# From GCN 1.1 a store reads its data when it issues: nothing to report.
        buffer_store_dword v1, v0, s[8:11], 0 offen
        v_mov_b32 v1, 0
# An export still reads its sources after it issues.
        exp mrt0, v20, v21, v22, v23 done vm
        v_mov_b32 v22, 0
        s_waitcnt expcnt(0)
        v_mov_b32 v23, 0
# So does an LDS instruction that goes to GDS (its address and data); not one to LDS.
        ds_write_b32 v30, v31 gds
        v_mov_b32 v31, 0
        ds_add_u32 v32, v33 gds
        v_mov_b32 v32, 0
        s_waitcnt expcnt(0) lgkmcnt(0)
        ds_write_b32 v30, v31
        v_mov_b32 v31, 0
        s_endpgm
