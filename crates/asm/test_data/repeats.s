# Repetitions: .rept, .irp, .irpc, .for (runs once before testing), .while.
.rawcode
.rept 3
    .byte 1
.endr
.rept 0
    .byte 2
.endr
.irp v, 4, 5 6
    .byte \v
.endr
.irpc c, 78
    .byte \c
.endr
.irp v
    .byte 9\v
.endr
.for i = 1, i < 20, i * 3
    .byte i
.endr
.for j = 30, j < 20, j + 1
    .byte j               # runs once, as in the reference
.endr
k = 3
.while k > 0
    .byte k
    k = k - 1
.endr
.while 0
    .byte 0xff
.endr
.rept 2
    .irp x, a, b
        .ascii "\x"
    .endr
.endr
.for q = 1, q < 4, q + (q / 0)
    .byte q
.endr
.rept undefined_count
.endr
