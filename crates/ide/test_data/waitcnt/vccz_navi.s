# args: -g gfx1010 -b rawcode
# GCN 1.5 updates VCCZ on any write of VCC, and has no scalar memory bug.
        s_mov_b32 vcc_lo, 0
        s_cbranch_vccz l1
l1:
        s_load_dword s1, s[2:3], 0
        s_cbranch_vccz l2
l2:
        s_endpgm
