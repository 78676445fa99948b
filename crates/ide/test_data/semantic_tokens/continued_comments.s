# a comment carried over \
s_nop 0 by a backslash
.byte 1 # this one too: \
v_mov_b32 v0, v1
.byte 2 /* a block comment
over lines */ .byte 3
.byte 4
