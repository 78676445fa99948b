#! gpu=Tonga
# A name that is no instruction, macro or pseudo-op: the error says what it may be a
# slip for (the generation's mnemonics, the macros, the format's pseudo-ops).
.macro store_result reg
    .int \reg
.endm
v_add_f23 v1, v2, v3
S_MOV_B33 s0, s1
s_endpgmm
store_reslut 3
# Ties are all listed (at most three).
v_ad_f32 v1, v2, v3
# v_add_co_u32 is GCN 1.4's name: the error gives GCN 1.2's for the same instruction.
v_add_co_u32 v1, vcc, v2, v3
# Too far from any name: no suggestion.
frobnicate
.inculde "x.s"
.skp 4
# A pseudo-op of another format is named as such.
.dims x
