s_add_u32 s21, s4, lit(-7)
s_and_b64 s[0:1], s[2:3], s[a+1:b]
v_xor_b32 regpool[4], regpool[zx+1], x[4]
reg1 = %s[0:1]
zz = %1
v_add_f32 v154, |v21|, -abs(v107)
v_mad_f32 v1, -|v2|, v3, sext(v4) clamp mul:2
v_mov_b32 v0, @v0
s_waitcnt vmcnt(14) & expcnt(2)
s_waitcnt vmcnt(0) lgkmcnt(0)
s_getreg_b32 s43, hwreg(mode, 0, 1)
s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 0)
buffer_load_dword v1, v2, s[4:7], 0 offen offset:12 glc slc
tbuffer_load_format_x v[61:62], v18, s[80:83], s35 idxen offset:2004 format:[8,sint]
image_sample v[1:4], [v1, v2, v3], s[8:15], s[16:19] dmask:0xf dim:2d_array
v_pk_add_f16 v1, v2, v3 op_sel:[0,1] op_sel_hi:[1,0]
v_mov_b32_dpp v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bound_ctrl:0
v_add_f32_dpp v1, v2, v3 row_shl:1
exp mrt0 v0, v1, v2, v3 done vm
v_interp_p1_f32 v93, v211, attr26.w
v_add_f32 v1, 1.5e3, v2
v_add_f32 v1, 0x1a2.4b5p5h, v2
s_mov_b32 s0, 'a'
s_mov_b32 exec_lo, ttmp[4:5]
v_cmp_eq_f32 vcc, v1, 1.0s
