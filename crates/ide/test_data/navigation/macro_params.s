# args: -g Tonga -b rawcode
# A macro's parameters: `\name` in the body refers to the parameter of its `.macro`.
.macro jump target, count=1
        s_nop \count
        s_branch \target
        .rept \count
        s_nop \count
        .endr
.endm
start:  jump start, 2
.irp reg, v1, v2
        v_mov_b32 \reg, 0
.endr
# A macro written inside a body has its own parameters; the enclosing one's come first.
.macro outer a, b=2 c:req
    .macro inner x, a
        .int \x, \a, \b
    .endm
    .irp v, 1, 2
        .int \v + \c
    .endr
    .int \a
.endm
# In strings too, as the reference substitutes them (`\\` is a backslash before `\major`).
.macro version major, minor
    .ascii "v\major\().\minor \\major", "\n"
.endm
#> count 0 rename=n
#> count 1
#> target 1 rename=count
#> reg 1 rename=r
#> \x 0
#> \a 0 rename=first
#> \a 1
#> \b 0 rename=1b
#> c:req 0
#> \v 0 rename=w
#> \minor 0 rename=mn
#> major, 0 rename=maj
