# args: -g Tonga -b rawcode
# After a call or a trap, what the callee or the handler left in flight is not known:
# a wait on a counter is not needless there until one waits for 0 on it. Code no branch
# or fall-through reaches, in a section with a jump through a register, may be entered
# with anything in flight: a function, a return point.
        s_waitcnt lgkmcnt(0)
        s_getpc_b64 s[2:3]
        s_add_u32 s2, s2, function-.
        s_swappc_b64 s[0:1], s[2:3]
        s_waitcnt vmcnt(1)
        s_waitcnt vmcnt(0)
        s_waitcnt vmcnt(0)
        s_waitcnt lgkmcnt(0)
        s_waitcnt lgkmcnt(0)
        s_trap 2
        s_waitcnt expcnt(0)
        s_waitcnt expcnt(0)
        s_endpgm
function:
        s_waitcnt vmcnt(0)
        s_waitcnt vmcnt(0)
        buffer_load_dword v1, v0, s[8:11], 0 offen
        s_setpc_b64 s[0:1]
