#! macro-case-sensitive
# `-m`: macro names are case-sensitive; `.macrocase` switches back.
.rawcode
.macro Upper
    .byte 1
.endm
Upper
.macrocase
.macro other
    .byte 2
.endm
OTHER
.nomacrocase
.macro Third
    .byte 3
.endm
third
