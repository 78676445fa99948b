.macro pair a b
    .byte a, b+1
.endm
pair 1 2
pair %3*4, <5>
