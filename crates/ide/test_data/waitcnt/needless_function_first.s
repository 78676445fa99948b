# args: -g Fiji -b rocm
# A function placed before the kernel in their shared code section: the section's first
# instruction starts no kernel, so a wait there is not needless (a caller may have
# anything in flight); the kernel's start has nothing in flight.
.kernel k
    .config
        .dims x
.text
function:
        s_waitcnt vmcnt(0)
        s_setpc_b64 s[0:1]
.p2align 8
k:
        .skip 256
        s_waitcnt vmcnt(0)
        s_getpc_b64 s[2:3]
        s_add_u32 s2, s2, function-.
        s_swappc_b64 s[0:1], s[2:3]
        s_endpgm
