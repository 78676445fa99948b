.gpu Tonga
.macro bump reg, n=1
  s_nop 0
.endm
        v_add_f32 $0
        v_add_f32 v1, $0v2
        v_add_f32 v1, v2, v$03
        s_waitcnt $0
        bump v1, $0
        v_cmp_eq_u32 vcc, v1,$0 v2
        s_endpgm$0
        v_pk_add_f16 $0
