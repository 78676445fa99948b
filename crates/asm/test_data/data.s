# Integer, floating-point and string data; empty values and truncations warn.
.byte 1, 0x1ff, -1, -129, , 'a'
.short 0x1234, -2, 70000
.hword 7
.int 0x12345678, -1
.long 5
.word 6
.quad 0x123456789abcdef0, -2
.octa 0x0123456789abcdef0123456789abcdef, -1, , +5
.half 1.5, -2.0, 65504
.float 1.0, -0.5, 3.4e38, 0x1.8p1
.single 2.5
.double 1.0e-300, .5
.float , 1, x
.ascii "ab", , "c\n"
.asciz "x"
.string "y\x41\101"
.string16 "hi"
.string32 "a"
.string64 "b"
.fill 3, 2, 0x0102
.fill 2, 9, 0x0102030405060708
.fillq 1, 8, 0x0102030405060708
.fill 1, 4, 0x1ffffffff
.fill -1, 1, 0
.fill 2
.skip 3, 0xaa
.space 2
.skip -4
.byte later, later + 1
later = 9
.string 5
.byte (
