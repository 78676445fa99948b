# args: -g Tonga -b rawcode
# Where code may be reached by a jump through a register or a return from a call, the
# operations in flight there are not known: no wait is called needless in the section.
        s_waitcnt lgkmcnt(0)
        s_getpc_b64 s[2:3]
        s_add_u32 s2, s2, 12
        s_swappc_b64 s[0:1], s[2:3]
        s_waitcnt vmcnt(0)
        s_endpgm
function:
        buffer_load_dword v1, v0, s[8:11], 0 offen
        s_setpc_b64 s[0:1]
