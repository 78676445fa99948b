# args: -g Fiji -b rocm
# ROCm: the user SGPRs the descriptor's flags enable, in their order.
.kernel k
    .config
        .dims x
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_load_dwordx2 s[10:11], s$0[6:7], 0
        s_mov_b32 s12, s$08
        s_endpgm
