# args: -g Tonga -b rawcode
# The writes before a read are looked for on every path into it.
# A loop: the write at the end of the body, the read at its start.
        s_mov_b32 s4, 0
loop:
        buffer_load_dword v2, v0, s[8:11], s4 offen
        s_waitcnt vmcnt(0)
        v_add_u32 v1, vcc, 1, v1
        v_readfirstlane_b32 s4, v1
        s_cbranch_scc1 loop
# Two paths join: enough wait states on the fall-through, too few on the branch.
        v_readfirstlane_b32 s5, v1
        s_cbranch_vccz join
        s_nop 4
join:
        buffer_load_dword v3, v0, s[8:11], s5 offen
        s_waitcnt vmcnt(0)
# Enough on both paths: nothing to report.
        v_readfirstlane_b32 s6, v1
        s_nop 3
        s_cbranch_vccz join2
        s_nop 4
join2:
        buffer_load_dword v3, v0, s[8:11], s6 offen
        s_waitcnt vmcnt(0)
        s_endpgm
# Code no branch or fall-through reaches has nothing before it.
        v_readfirstlane_b32 s7, v1
        s_endpgm
unreached:
        buffer_load_dword v3, v0, s[8:11], s7 offen
        s_endpgm
