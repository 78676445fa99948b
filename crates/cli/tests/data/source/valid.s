# Every kind of statement, without a syntax error.
.gallium
.gpu CapeVerde
    .set SIZE, 4*16         # an assignment through a pseudo-op
    /* a block comment */ .byte 1, 2
COUNT = SIZE >> 2
.macro add_twice dst, src
    v_add_f32 \dst, \src, \dst
    v_add_f32 \dst, \src, \dst
.endm
.rept 2
    s_nop 0
.endr
.if COUNT > 1
    s_mov_b32 s0, COUNT
.else
    s_mov_b32 s0, 1
.endif
start:
    s_load_dwordx2 s[4:5], s[0:1], 0x9
    s_waitcnt lgkmcnt(0)
    add_twice v1, v2
    v_cndmask_b32 v3, v1, v2, vcc
    buffer_load_dword v4, v[1:2], s[8:11], 0 addr64 offset:16
    s_cbranch_scc0 start
    s_endpgm
