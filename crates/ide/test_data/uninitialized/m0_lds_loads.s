# args: -g gfx900 -b rocm
# A buffer load into LDS (`lds`) takes the LDS address from M0, as
# `buffer_store_lds_dword` does.
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_load_dwordx4 s[4:7], s[0:1], 0
        s_waitcnt lgkmcnt(0)
        buffer_load_dword v0, s[4:7], 0 lds
        s_waitcnt vmcnt(0)
        s_endpgm
