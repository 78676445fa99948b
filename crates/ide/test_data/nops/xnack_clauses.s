# args: -g gfx900 -b rocm
# With XNACK on, a page fault replays a soft clause (memory instructions of one kind
# issued one after another): none may overwrite a register one of them reads, and a
# scalar store may not join a scalar one. `s_nop 0` before the joining one breaks it.
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
        .use_xnack_enabled
.text
k:
        .skip 256
# The second load overwrites the address the first reads.
        s_load_dwordx2 s[4:5], s[0:1], 0
        s_load_dwordx2 s[0:1], s[6:7], 0
# Broken by s_nop 0: nothing to report.
        s_load_dwordx2 s[4:5], s[8:9], 0
        s_nop 0
        s_load_dwordx2 s[8:9], s[6:7], 0
# A load over its own address, once another joins, or joining one.
        s_nop 0
        s_load_dwordx2 s[10:11], s[10:11], 0
        s_load_dword s12, s[6:7], 8
        s_nop 0
        s_load_dword s13, s[6:7], 0
        s_load_dwordx2 s[10:11], s[10:11], 0
# Independent loads make a clause that is fine.
        s_nop 0
        s_load_dword s13, s[6:7], 0
        s_load_dword s14, s[6:7], 4
# A scalar store joining a clause.
        s_load_dword s15, s[6:7], 0
        s_store_dword s2, s[6:7], 0
        s_waitcnt lgkmcnt(0)
# Vector memory: the second load overwrites the first's address.
        global_load_dword v1, v[2:3], off
        global_load_dword v2, v[4:5], off
        global_load_dword v6, v[4:5], off
# A store joining vector loads; a load after a lone store is fine.
        global_store_dword v[8:9], v10, off
        s_nop 0
        global_store_dword v[8:9], v10, off
        global_load_dword v8, v[8:9], off
        s_waitcnt vmcnt(0)
        s_endpgm
