#! gpu=Tonga
# Register symbols: ranges, source-only registers and constants; a defined register
# symbol wins over the register name; late values truncate to their field.
.rawcode
pool = %v[16:31]
s = %s[20:23]
one = %1
half = %0.5
z = %scc
ex = %execz
v_xor_b32 pool[4], pool[7], pool[9]
s_add_u32 s[1], one, half
s_add_u32 s3, z, ex
s_movk_i32 s43, late
late = 0x1d4ba
.int pool
s_add_u32 s1, s2, vv
vv = %s4
r = %v[1:2]
.set r2, %s[4:5]
.equiv r3, %v7
.eqv r4, %v8
