# args: -g Tonga -b rawcode
.macro add3 dst, a, b, c
        v_add_f32 \dst, \a, \b
        v_add_f32 \dst, \dst, \c
.endm
.macro pair n
    .if \n > 1
        s_mov_b32 s\n, 1
    .else
        s_mov_b32 s\n, 0
    .endif
    add3 v\n, v1, v2, v3
loop\@:
.endm
        $0add3 v0, v1, v2, v3
        pair$0 2
        pair 1$0
        .rept 2$0
        s_nop 0
        .endr
        .irp r, s4, s5
            s_mov_b32 \r, 0$0
        .endr
        s_nop$0 1
$0
.if 0
        add3 v0, v1, v2, v3$0
.endif
        .irp$0 r, s4, s5
            s_mov_b32 \r, 0
        .endr
        .rept 2
        add3 v0, v1, v2, v3$0
        .endr
        a: add3 v0, v1, v2, v3 ; add3 v4, v5, v6, v7$0
        add3 v0, v1, \
            v2, v3$0
        add3 v4, v5,$0 \
            v6, v7
