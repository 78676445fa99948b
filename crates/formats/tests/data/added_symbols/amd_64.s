# AMD OpenCL 1.2, 64-bit main ELF (the inner ELFs stay 32-bit), raw kernel setup
# (metadata, header, CAL notes): labels of those sections have no ELF section.
.amd
.gpu CapeVerde
.64bit
.global k_code, k_meta, neg, k_data
neg = -2
.kernel raw
    .metadata
k_meta:
        .ascii ";ARGSTART:__OpenCL_raw_kernel\n;ARGEND:__OpenCL_raw_kernel\n"
    .header
        .fill 8, 4, 0
    .proginfo
        .int 0x80001000, 4
    .text
        s_nop 0
k_code:
        s_endpgm
    .data
k_data:
        .fill 16, 1, 0xaa
