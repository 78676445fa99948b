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
# A modifier the instruction does not take: the modifiers it takes on the generation.
buffer_load_dword v1, v2, s[0:3], 0 ofset:4
buffer_load_dword v1, v2, s[0:3], 0 offen GLCC
v_add_f32 v1, v2, v3 clmap
v_mov_b32_dpp v1, v2 quad_perm:[0,1,2,3] rowmask:0xf
ds_read_b32 v1, v2 offst:8
flat_load_dword v1, v[2:3] slcc
# Taken by another generation only: no hint (`dlc` is GCN 1.5's).
s_load_dword s1, s[2:3], 0 dlcc
