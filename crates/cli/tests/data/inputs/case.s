.macro Twice x
    .byte \x, \x
.endm
Twice 7
twice 8
