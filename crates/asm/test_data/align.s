# Alignment: data sections pad with the value (or zeros), code sections with s_nop.
.rawcode
.byte 1
.align 4
.byte 2
.balign 8, 0xee
.byte 3
.p2align 3, 0xdd, 2      # needs 7 bytes: more than 2, so nothing
.byte 4
.p2align 2
.balignw 8, 0x1234
.balignl 16, 0xcafebabe
s_nop 1
.byte 5, 6
.align 8                 # code: zeros to 4, then s_nop
.align 3
.p2align 64
.balignw 4, 0x11        # fine: aligned to words
.byte 7
.balignw 4
