.macro jump target, count=1
        s_nop \co$0
        s_branch \$0, 1
    .irp reg, v1, v2
        v_mov_b32 \$0, 0
    .endr
        .int \$0, 0
.endm
.irp x, 1, 2
        .int \x$0
.endr
# Outside any body: nothing.
        .int \$0, 0
# In a string of the body, after `\`.
.macro version major, minor
        .ascii "v\major\().\mi$0"
        .ascii "\$0"
        .ascii "no$0"
        .ascii "é$0"
        .ascii "é\mi$0"
.endm
# A `\` just typed at a line's end joins the next line, yet completes.
.macro m a
        .int \$0
.endm
