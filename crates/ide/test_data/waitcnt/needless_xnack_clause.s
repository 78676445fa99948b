# args: -g gfx900 -b rocm
# With XNACK on, a wait that never waits still breaks a soft clause where it stands
# between two scalar loads: taking it out would make a `missing-nop`, so it is not
# needless. The same wait elsewhere is.
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
        .use_xnack_enabled
.text
k:
        .skip 256
        s_load_dwordx2 s[4:5], s[0:1], 0
        s_waitcnt vmcnt(0)
        s_load_dwordx2 s[0:1], s[6:7], 0
        s_waitcnt lgkmcnt(0)
        s_waitcnt vmcnt(0)
        s_endpgm
