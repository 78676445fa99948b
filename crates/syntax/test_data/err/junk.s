.int 1 2
) s_nop
v_add_f32 v1, 08, v2
.endif
"unterminated
x = 'ab
€
.rept 3
