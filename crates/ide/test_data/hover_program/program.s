# args: -g Tonga -b gallium -I include
# Hover with the program's analysis: names from an include, values, places, kernels.
.include "regs.s"
.kernel scale
    .config
        .dims x
.text
FACTOR = 3 * 4
.scope inner
    count = 7
.ends
sc$0ale:
        v_mov_b32 ac$0c, s5
        s_load_dwordx2 ba$0se, s[0:1], 0
        v_mul_lo_u32 v1, v$02, FAC$0TOR
        bu$0mp v1, inner::cou$0nt
1:      s_nop inn$0er::count
        s_cbranch_scc0 1$0b
        s_nop 0
2:      v_mov_b32 v7, 0
        s_branch sc$0ale
        s_endpgm
