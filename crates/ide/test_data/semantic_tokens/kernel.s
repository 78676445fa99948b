# kernel with every kind of token
.gpu Tonga
.macro bump reg, n=1
        v_add_u32 \reg, vcc, \n, \reg   # in a body
.endm
FACTOR = 3
.kernel k
k:      s_load_dwordx2 s[4:5], s[0:1], 0x8
        v_mul_lo_u32 v3, v2, FACTOR
        v_add_f32 v1, -1.5, abs(v2) clamp
        s_waitcnt lgkmcnt(0)
        bump v3
1:      s_cbranch_scc0 1b
        .ascii "text"
        buffer_load_dword v1, v2, s[4:7], 0 offen offset:4
        .arg v30, "float*", float*, global
