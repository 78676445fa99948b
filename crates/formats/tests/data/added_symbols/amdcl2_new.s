# AMD OpenCL 2.0, new layout (driver 2348.00), 64-bit. Absolute symbols and those of
# the main extra sections go to the main ELF; global data, read-write data, bss,
# sampler initializers, the kernels' code and the inner extra sections to the inner ELF.
# The symbols of the three kinds of data also get a local `&input_bc::&NAME` copy
# before the format's symbols, which moves the relocations' symbol indices. A kernel's
# code lies in .hsatext after its 256-byte setup, each kernel 256-byte aligned.
.amdcl2
.gpu Bonaire
.64bit
.driver_version 234800
.global gdat, rw1, bs1, absv, kf1, kf2, mx, ix, si, kmeta
absv = -3
.section .mainx
    .byte 0
mx: .byte 1
.globaldata
    .int 1
gdat:
    .int 2
    .size gdat, 4
.rwdata
    .int 9
rw1:
    .int 4
.bssdata
    .skip 8
bs1:
    .skip 8
.inner
.section .innerx
    .byte 5
ix: .byte 6
.samplerinit
si:
    .int 0x10008, 0
.kernel add
    .config
        .dims x
        .setupargs
        .arg n, uint
    .text
        s_mov_b32 s0, gdat+4
kf1:
        s_endpgm
.kernel sub
    .metadata
kmeta:
        .byte 0
    .setup
        .fill 64, 4, 0
    .text
        s_nop 0
        s_nop 0
kf2:    s_endpgm
