# args: -g Tonga -b rawcode
.macro store_result reg
    .int \reg
.endm
    v_add_f$023 v1, v2, v3
    $0s_mov_b33 s0, s1
    v_ad_f32$0 v1, v2, v3
    store_reslut$0 3
    .inculde$0 "x.s"
    frobnicate$0
    v_add_f32 v1, v2$0, v3
# In a macro, the fix is in the body when the name is written there.
.macro bad
    s_endpgmm$0
.endm
bad
# A name given as a macro argument is not fixed in the body.
.macro call name
    \name$0 v1, v2
.endm
call v_mov_b3$0
# An unresolved label: the defined one it may be a slip for.
loop:
    s_branch lo$0p
    s_branch Loop$0
# In an expression: the fix replaces the name alone (written twice there: no fix).
    .int lop + 4$0
    .int (lop + lop)$0
    .int 1 + (2 * lop)$0
# An instruction this generation names differently: its name here.
    v_add_co_u32$0 v1, vcc, v2, v3
    V_ADD_CO_U32$0 v1, vcc, v2, v3
# LLVM's name of a hardware register: CLRX's, in the source's case.
    s_getreg_b32 s6, hwreg(HW_REG_MODE$0, 0, 4)
# A device name that is not one.
.ifgpu Tonag$0
.endif
# A misspelled modifier.
    buffer_load_dword v1, v2, s[0:3], 0 ofset$0:4
    v_mov_b32_dpp v1, v2 quad_perm:[0,1,2,3] rowmask$0:0xf
