# a number after a minus is the negative operand it makes, from either token
.gpu Tonga
.rawcode
        s_add_u32 s6, s6, -$01
        s_add_u32 s6, s6, $0-1
        s_add_u32 s6, s6, -0x1$00
        v_add_f32 v1, -2$0.5, v2
        .int 3 - 1$0
        .int - -$04
