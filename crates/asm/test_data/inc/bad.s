.macro inner
    .byte 0x33
    .error "in a macro in an include"
.endm
inner
