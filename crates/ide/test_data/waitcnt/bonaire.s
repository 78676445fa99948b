# args: -g Bonaire -b rawcode
# From GCN 1.1 a store reads its data when it issues: nothing to report.
        buffer_store_dword v1, v0, s[8:11], 0 offen
        v_mov_b32 v1, 0
# An export still reads its sources after it issues.
        exp mrt0, v20, v21, v22, v23 done vm
        v_mov_b32 v22, 0
        s_waitcnt expcnt(0)
        v_mov_b32 v23, 0
        s_endpgm
