.macro m a
        s_nop \a
.endm
.if 1
k:      v_add_f32 v1, v$02, abs(v[3$0:4])
        .int 1 + (2 * 3$0)
.endif
$0
