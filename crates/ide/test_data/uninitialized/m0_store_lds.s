# args: -g gfx900 -b rocm
# `buffer_store_lds_dword` stores from LDS at the address M0 holds.
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_load_dwordx4 s[4:7], s[0:1], 0
        s_waitcnt lgkmcnt(0)
        buffer_store_lds_dword s[4:7], 0
        s_endpgm
