# args: -g GFX900 -b rocm
# EXEC is set when the wave starts: a copy of it holds a value (as the atomic
# optimizer's `v_mbcnt` code reads it). VCC is not.
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_mov_b64 s[6:7], exec
        v_mbcnt_lo_u32_b32 v1, s6, 0
        v_mbcnt_hi_u32_b32 v1, s7, v1
        s_mov_b64 s[8:9], vcc
        v_add_u32 v2, s8, v1
        global_store_dword v0, v2, s[0:1]
        s_endpgm
