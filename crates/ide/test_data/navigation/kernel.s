# args: -g Tonga -b gallium -I include
# Navigation across an include: a kernel and its label, scoped symbols, a register
# symbol in operands, a macro from the included file, local labels.
.include "defs.s"
.kernel scale
    .config
        .dims x
.text
FACTOR = 3
.scope inner
    count = 7
    x = count + ::count
.ends
scale:
        v_mov_b32 acc, s5
        v_mul_lo_u32 acc, acc, FACTOR
        bump acc
1:      s_nop inner::x
        s_cbranch_scc0 1b
        s_branch 1f
1:      s_branch scale
        s_nop count
        s_endpgm
# Queries: `#> TEXT [N] [rename=NEW]`: the cursor on the N-th (from 0) TEXT above.
#> scale 0
#> scale 1 rename=grow
#> scale 2
#> FACTOR 1 rename=SCALE
#> FACTOR 0 rename=1abc
#> count 1 rename=total
#> ::count 0 rename=sum
#> inner::x 0 rename=y
#> ::x 0 rename=y
#> acc 1 rename=sum
#> acc 2 rename=v7
#> bump 0 rename=incr
#> 1b 0 rename=5
#> 1f 0 rename=two
#> defs.s 0
#> v_mul_lo_u32 0 rename=x
#> s5 0 rename=x
#> .text 0 rename=x
#> 3 0 rename=x
#> FACTOR 1 rename=scale
#> count 1 rename=x
#> acc 1 rename=FACTOR
#> 1b 0 rename=7
