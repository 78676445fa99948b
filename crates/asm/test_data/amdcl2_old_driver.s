#! format=amdcl2 gpu=Bonaire
# AMD OpenCL 2.0 before driver 1912.05 (the old layout): no inner binary, so neither
# global data, read-write data, bss, samplers nor inner sections; the ISA metadata and
# the stub only there.
.driver_version 180005
.get_driver_version ver
.section .rodata
.rodata
.data
.section .bss
.globaldata
.rwdata
.bssdata
.samplerinit
.sampler 1
.samplerreloc 0, 0
.hsalayout
.section .main_extra
    .byte 1
.inner
.section .inner_extra
.kernel k
    .section .inner_extra2
    .isametadata
    .byte 2
    .stub
    .byte 3
    .text
    s_endpgm
# From 1912.05 the inner sections are allowed and the ISA metadata and stub are not.
.driver_version 191205
.kernel k2
    .section .inner_extra3
    .byte 4
.kernel k3
    .isametadata
    .stub
# Re-entering a kernel whose last section was a new inner one: the kernel is current
# again (its configuration and code) and so is that section.
.kernel k2
    .byte 5
    .config
        .dims x
    .text
    s_endpgm
