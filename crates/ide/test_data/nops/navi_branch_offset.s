# args: -g GFX1010 -b rawcode
# GCN 1.5 mis-executes a branch whose offset is 0x3f (63 instructions ahead); an
# `s_nop 0` after it makes the offset 0x40.
        s_cbranch_scc0 far
        .rept 63
        s_nop 0
        .endr
far:
        s_branch farther
        .rept 62
        s_nop 0
        .endr
farther:
        s_endpgm
