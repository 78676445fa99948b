# args: -b rawcode -g Tonga
# An error in a repetition of 1000 is shown once, with how many times it was reported;
# different errors at one place stay apart, and the same error from two lines too.
.rept 1000
    s_bogus
.endr
.macro twice x
    v_mov_b32 v1, \x
    v_mov_b32 v1, \x
.endm
twice s200
twice s201
.rept 3
    .byte 300, 301
.endr
