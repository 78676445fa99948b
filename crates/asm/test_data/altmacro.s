#! alt
# Alternate macro syntax: bare parameter names, %expr and <…> arguments, local names.
.rawcode
.macro put a, b
    local here, there
here: .byte a, b
there: .ascii "a-b"
    .byte here, there
.endm
put 1, 2
put %3*4, <5>
.macro quote s
    .ascii "s"
.endm
quote <x!>y>
quote 'it!'s'
.noaltmacro
.macro plain a
    .byte \a
.endm
plain 7
