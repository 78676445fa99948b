# args: -g Fiji -b rocm
# An atomic that returns the old value (`glc`) reads its data first: a data register
# nothing wrote is reported, as for one that does not return.
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_load_dwordx4 s[4:7], s[0:1], 0
        s_waitcnt lgkmcnt(0)
        buffer_atomic_add v8, v0, s[4:7], 0 offen glc
        buffer_atomic_add v9, v0, s[4:7], 0 offen
        s_waitcnt vmcnt(0)
        s_endpgm
