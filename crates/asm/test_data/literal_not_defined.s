# An operand whose value is not known yet (a symbol defined further on, or never) is
# encoded as a literal; where a literal cannot be, the error says which names were not
# defined, as a user who meant a register symbol set further on needs to know.
.gpu Tahiti
.rawcode
        v_xor_b32 v115, s12, DB_EF00
        v_xor_b32 v116, v1, DB_EF01
        v_mad_f32 v1, v2, N, N + M
        v_add_f32 v1, s0, 12345678
        v_add_f32 v1, s0, N
DB_EF00 = %v31
N = 2
        v_xor_b32 v115, s12, DB_EF00
        v_add_f32 v1, s0, N
