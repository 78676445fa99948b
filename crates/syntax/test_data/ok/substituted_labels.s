# Labels built by substitution before a closing pseudo-op (once a parser panic).
.irp x, a, b
\x\()l: .rept 1
    .int 1
\x\()e: .endr
last: .endr
