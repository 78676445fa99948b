# GalliumCompute: -S adds weak symbols only, and refuses a global one.
.gallium
.kernel first
.text
first:
    s_nop 0
.global entry
entry:
.weak spare
spare:
    s_endpgm
