# args: -g Pitcairn -b rawcode
# GCN 1.0 and 1.1: a scalar memory load that returns after VCC was written may corrupt
# VCCZ (a hardware bug LLVM works around), so a branch on VCCZ needs VCC written again
# once no such load is in flight.
# A load issued after the compare: VCCZ may be wrong at the branch, even after a wait.
        v_cmp_gt_u32 vcc, s0, v0
        s_load_dword s1, s[2:3], 0
        s_waitcnt lgkmcnt(0)
        s_cbranch_vccz l1
l1:
# VCC written while the load is in flight: still wrong, and the load is still there.
        s_load_dword s1, s[2:3], 0
        v_cmp_gt_u32 vcc, s0, v0
        s_cbranch_vccnz l2
l2:
        s_waitcnt lgkmcnt(0)
# Written again after the wait: right.
        s_load_dword s1, s[2:3], 0
        s_waitcnt lgkmcnt(0)
        v_cmp_gt_u32 vcc, s1, v0
        s_cbranch_vccz l3
l3:
# The fix LLVM writes: a wait, then VCC written again.
        v_cmp_gt_u32 vcc, s0, v0
        s_load_dword s1, s[2:3], 0
        s_waitcnt lgkmcnt(0)
        s_mov_b64 vcc, vcc
        s_cbranch_vccz l4
l4:
# Along a loop's back edge: the load at its end comes after the compare.
        v_cmp_gt_u32 vcc, s0, v0
loop:
        s_cbranch_vccz done
        s_load_dword s1, s[2:3], 0
        s_waitcnt lgkmcnt(0)
        s_branch loop
done:
# A vector ALU instruction reading VCCZ as data.
        v_cmp_gt_u32 vcc, s0, v0
        s_load_dword s1, s[2:3], 0
        s_waitcnt lgkmcnt(0)
        v_add_f32 v1, vccz, v1
        s_endpgm
