# args: -g Tonga -b rawcode
# GCN 1.2 and later do not have the VCCZ bug of GCN 1.0 and 1.1.
        v_cmp_gt_u32 vcc, s0, v0
        s_load_dword s1, s[2:3], 0
        s_waitcnt lgkmcnt(0)
        s_cbranch_vccz l1
l1:
        s_endpgm
