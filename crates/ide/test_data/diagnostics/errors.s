.int (1+2*
    s_mov_b32 s0,
x = 
.if 1
.endm
