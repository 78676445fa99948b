# Diagnostics inside expansions point at the source, with where they came from.
.rawcode
.macro inner x
    .byte \x
.endm
.macro outer y
    inner \y
.endm
outer (
.rept 2
    .byte 1, undefined_later + (
.endr
.irp v, 1, 2
    .byte 256 * \v
.endr
