# AMD OpenCL 1.2, 64-bit, without kernels: the main ELF has no .rodata nor .text, so
# its extra sections start at index 5.
.amd
.gpu Tonga
.64bit
.global big, first_extra, second_extra
big = 0x123456789a
.section .one
first_extra:
    .byte 1
.section .two
    .byte 2, 3
second_extra:
    .byte 4
