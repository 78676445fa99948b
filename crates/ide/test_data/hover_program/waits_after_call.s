# args: -g Tonga -b rawcode
# After a call, what the callee left in flight is not known; the caller's own loads
# are done (a function waits for them before it returns).
        buffer_load_dword v1, v0, s[8:11], 0 offen
        s_getpc_b64 s[2:3]
        s_add_u32 s2, s2, function-.
        s_swappc_b64 s[0:1], s[2:3]
        s_waitcnt$0 vmcnt(0)
        s_waitcnt$0 vmcnt(0)
        s_waitcnt$0 lgkmcnt(0)
        s_endpgm
function:
        s_setpc_b64 s[0:1]
