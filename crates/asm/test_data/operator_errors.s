# An error that belongs to an operator (a division by zero, an operation a
# section-relative value does not take) is reported at the operator, as clrxasm
# reports it; one in an `.eqv` the expression uses is reported in the `.eqv`, with
# the expression that evaluated it as the origin.
.int 5 + 1/0
x = 7
.int x / (x-7)
.int 1 % 0
.for y = 1, y < 16, y+y+(y/0)
    .int y
.endr
.int x00 + 1
a00 = 3
a02 = 0
.eqv x00, a00/a02
# in instruction operands too
        s_mov_b32 s0, 5+1/0
        v_add_f32 v0, 2+3%0, v1
        s_branch 1/0
