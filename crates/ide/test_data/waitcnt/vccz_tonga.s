# args: -g Tonga -b rawcode
# GCN 1.2 and later do not have the VCCZ bug of GCN 1.0 and 1.1: a scalar memory load
# does not corrupt VCCZ.
        v_cmp_gt_u32 vcc, s0, v0
        s_load_dword s1, s[2:3], 0
        s_waitcnt lgkmcnt(0)
        s_cbranch_vccz l1
l1:
# Up to GCN 1.4, a write of only half of VCC leaves VCCZ as it was.
        s_mov_b32 vcc_lo, 0
        s_cbranch_vccz l2
l2:
        v_cmp_gt_u32 vcc, s0, v0
        s_and_b32 vcc_hi, vcc_hi, s1
        s_nop 4
        v_add_f32 v1, vccz, v1
# A whole write after it makes it right again.
        s_mov_b32 vcc_lo, 0
        s_mov_b32 vcc_hi, 0
        s_mov_b64 vcc, vcc
        s_cbranch_vccz l3
l3:
# On one path only: reported.
        s_cmp_eq_u32 s0, 0
        s_cbranch_scc0 l4
        s_mov_b32 vcc_lo, 0
l4:
        s_cbranch_vccnz l5
l5:
        s_endpgm
