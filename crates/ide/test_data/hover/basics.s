# hover on each kind of thing
.gpu Tonga
.gallium
.kernel scale
    .config
        .dims x
        .t$0gsize
.text
FACTOR = 3
scale:
        s_load_dword$0x2  s[4$0:5], s[0:1], 0x$08
        v_mov_b32       v2, s5
        v_mul_lo$0_u32    v3, v2, FAC$0TOR
        v_add_f32_e6$04   v1, -1.$05, v$03 clamp$0
        s_and_b64       ex$0ec, vcc_l$0o, ttmp[2:$03]
        s_branch        scal$0e
        s_cbranch_scc0  1$0b
        v_pk_add_f$016  v1, v2, v3
        s_mov_b32       s200$0, 0
        .in$0t -1$0
.macro vadd d, s0, s1
        v_add_u32 \d, vcc, \s0, \s1
.endm
        vadd v$02, s$04, v0
