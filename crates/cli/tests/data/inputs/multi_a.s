# The first of two files read as one source: .if opened here, closed in multi_b.s.
.if 1
    s_nop 0
    .int 1+