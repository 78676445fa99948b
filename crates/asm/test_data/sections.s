#! format=amd
# Sections and kernels of the AMD format; `.struct`/`.offset` define offsets.
.byte 0xff               # the global data section
.kernel first
    .text
start1: s_endpgm
end1:
    .data
    .byte 1, 2
.kernel second
    .byte 9                # back in second's .text (its default section)
    s_nop 0
.kernel first
    .byte 0x11             # first's last section: .data
.main
    .byte 0xfe
    .int end1 - start1
    .int start1            # section-relative: not allowed in data
.struct 8
f0: .struct 12
f1: .offset f1 + 4
f2:
    .org 2
f3:
    .byte 1                # no data in the absolute section
.text
