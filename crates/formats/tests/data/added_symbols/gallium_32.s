# GalliumCompute, 32-bit: -S adds the weak symbols (kernels aside) after the kernels'
# symbols: .text, .rodata, .comment, extra sections (from index 11 with global data),
# absolute ones. Global symbols are refused (see gallium_global.s).
.gallium
.gpu Tonga
.weak gd, lab, absv, first, cm, ex
absv = 77
.kernel first
    .config
        .dims x
.kernel second
    .config
        .dims xy
.rodata
    .int 1
gd: .int 2
.section .comment
cm: .ascii "hi"
.section .myex
    .byte 0
ex: .byte 1
.text
first:
    s_nop 0
lab:
    s_endpgm
second:
    s_endpgm
