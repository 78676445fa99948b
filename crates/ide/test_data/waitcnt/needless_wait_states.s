# args: -g Tonga -b rawcode
# Before GCN 1.5 a wait is a wait state like any instruction: one that an `s_nop`
# count relies on is not needless, though it never stops the wave.
        v_cmp_eq_u32 vcc, v0, v1
        s_waitcnt lgkmcnt(0)
        s_nop 2
        v_div_fmas_f32 v0, v1, v2, v3
        s_endpgm
# Enough wait states without it: needless.
        v_cmp_eq_u32 vcc, v0, v1
        s_waitcnt lgkmcnt(0)
        s_nop 3
        v_div_fmas_f32 v0, v1, v2, v3
        s_endpgm
