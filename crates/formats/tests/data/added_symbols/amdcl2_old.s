# AMD OpenCL 2.0, old layout (driver 1800.05): no inner ELF, so the kernels' code
# symbols are left out; the absolute ones and those of the main extra sections stay.
.amdcl2
.gpu Bonaire
.driver_version 180005
.global c, a, e
a = 3
.section .extra
    .byte 1
e:
    .byte 2
.kernel one
    .config
        .dims x
    .text
c:
        s_endpgm
