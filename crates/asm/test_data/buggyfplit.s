#! gpu=Tonga buggy-fp-lit
# --buggyFPLit chooses CLRX 0.1.2's float-literal rules; .nobuggyfplit and
# .buggyfplit switch them for the instructions that follow.
.rawcode
# buggy: a double operand reads 1.5 as single (literal 0x3fc00000), a half operand
# gets no constant for 1.0 (literal 0x3c00), a single value is a constant anywhere.
v_rcp_f64 v[1:2], 1.5
v_add_f16 v1, 1.0, v2
v_add_f16 v1, 1.0s, v2
.nobuggyfplit
# default: 0x3ff80000, the constant 1.0 (0xf2), a literal 0x3f800000
v_rcp_f64 v[1:2], 1.5
v_add_f16 v1, 1.0, v2
v_add_f16 v1, 1.0s, v2
.buggyfplit
v_rcp_f64 v[1:2], 1.5
