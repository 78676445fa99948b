# args: -g Fiji -b rocm
# Kernels that share a code section each start with nothing in flight, even where the
# section jumps through a register: there a wait is needless. Code no branch reaches
# that starts no kernel (a function) may be entered with anything in flight.
.kernel first
    .config
        .dims x
.kernel second
    .config
        .dims x
.text
first:
        .skip 256
        s_waitcnt lgkmcnt(0)
        s_getpc_b64 s[2:3]
        s_add_u32 s2, s2, function-.
        s_swappc_b64 s[0:1], s[2:3]
        s_endpgm
function:
        s_waitcnt vmcnt(0)
        s_setpc_b64 s[0:1]
.p2align 8
second:
        .skip 256
        s_waitcnt vmcnt(0)
        s_endpgm
