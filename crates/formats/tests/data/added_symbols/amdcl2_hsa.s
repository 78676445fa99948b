# AMD OpenCL 2.0 HSA layout: the kernels' labels in the shared .text are code
# symbols of the inner ELF, at their offsets in .hsatext.
.amdcl2
.gpu Fiji
.64bit
.driver_version 234800
.hsalayout
.global add, sub, inside, outside
outside = 0x100
.kernel add
    .config
        .dims x
        .setupargs
.kernel sub
    .config
        .dims xy
        .setupargs
.text
add:
    .skip 256
    s_nop 0
inside:
    s_endpgm
.p2align 8
sub:
    .skip 256
    s_endpgm
