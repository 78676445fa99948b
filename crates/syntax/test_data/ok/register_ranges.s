# A register range with numbers as bounds is found by its text once built: the
# second and later ones must come out as the first.
v_add_f64 v[2:3], v[2:3], s[4:5]
v_add_f64 v[2:3], v[2:3], s[4:5]
V_ADD_F64 V[2:3], v[ 2:3], s[4 :5]
s_load_dwordx4 s[8:11], s[0:1], 0x10
s_load_dwordx4 s[8:11], s[0:1] , 0x10 # s[0:1] again
v_mov_b32 v[1:1], ttmp[4:5], s[n:n+1], v[0x2:0x3]
v_mov_b32 v[1:1], ttmp[4:5], s[n:n+1], v[0x2:0x3]
s_mov_b64 s[2:3]/*c*/, s[2:3]
s_mov_b64 s[2:3], s[2:3]
