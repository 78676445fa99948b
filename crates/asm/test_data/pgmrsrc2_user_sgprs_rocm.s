#! format=rocm gpu=Fiji
# ROCm takes `.userdatanum`, else counts the SGPRs its HSA flags ask for: 6 here
# (private segment buffer and kernel argument pointer), where `.pgmrsrc2` asks for 8.
.kernel k
    .config
        .dims x
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
        .pgmrsrc2 0x90
.kernel same
    .config
        .dims x
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
        .pgmrsrc2 0x8c
.text
k:
        .skip 256
        s_endpgm
same:
        .skip 256
        s_endpgm
