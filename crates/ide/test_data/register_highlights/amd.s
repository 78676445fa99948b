# AMD formats: a kernel's code is its scope.
.gpu Pitcairn
.kernel one
    .text
        v_mov_b32 v$01, 0
        v_add_f32 v2, v1, v1
.kernel two
    .text
        v_mov_b32 v1, 1
# A suffix names the same instruction: its destination is written.
        V_MOV_B32_E64 v$07, v8
        v_add_f32 v9, v7, v7
# An expression is not matched; a macro body is text.
        s_mov_b32 s[x$0:x+1], 0
.macro m
        v_mov_b32 v1, 2
.endm
