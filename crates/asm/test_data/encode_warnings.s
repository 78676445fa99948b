#! gpu=Pitcairn
# The encoder's warnings reach the diagnostics at the value they are about, whether the
# value is known when the instruction is assembled or only later (the same rule cuts
# both), and an instruction that warns is never taken from the encoding cache.
.rawcode
s0 = 3191
    s_load_dword s50, s[58:59], @s0
    s_load_dword s50, s[58:59], @s1
s1 = 3191
    s_movk_i32 s43, 0x11d4ba
    s_movk_i32 s43, later
later = 0x22d4ba
.rept 2
    s_movk_i32 s43, 0x11d4ba
.endr
.macro wait n
    s_waitcnt vmcnt(\n)
.endm
    wait 33
    ds_add_u32 v71, v169 offset:52 offset:0x10000
