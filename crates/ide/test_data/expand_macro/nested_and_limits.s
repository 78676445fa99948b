# args: -g Tonga -b rawcode
.include "helpers.inc"
.macro twice x
        zero \x$0
        zero \x+1
.endm
        twice 4
        twice 8$0
        zero$0 2
.altmacro
.macro count n
    local again
again:
        s_sub_u32 s0, s0, n
        s_cbranch_scc0 again
.endm
        count 3$0
        count 5$0
.noaltmacro
.macro stop
        s_nop 0
        .exitm
        s_nop 1
.endm
        stop$0
        .rept 3$0
        s_nop 0
        .endr
