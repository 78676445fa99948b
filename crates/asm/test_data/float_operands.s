#! gpu=GFX1010
# Float literals in operands follow the same conversion as `.float`: a value that rounds
# past the largest finite number of its precision is an error, an exponent needs digits.
v_add_f32 v1, 1e40, v2
v_add_f32 v1, 3.4028234e38, v2
v_add_f16 v1, 65520.0, v2
v_add_f16 v1, 65504.0, v2
v_add_f64 v[2:3], 1e309, v[4:5]
v_add_f64 v[2:3], 1.7976931348623157e308, v[4:5]
v_add_f64 v[2:3], 1.79769e308, v[4:5]
s_mov_b32 s0, 1e39
s_mov_b32 s0, 1e39h
v_add_f32 v1, 1.5e, v2
v_add_f32 v1, 2.5, v2
