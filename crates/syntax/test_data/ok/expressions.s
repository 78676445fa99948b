.int 1 + 2 * 3, (1 + 2) * 3, -~!x, a ? b : c ? d : e
.int a // b, a %% b, a >>> 2, a << 1 >> 2
.int a <@ b, a <=@ b, a >@ b, a >=@ b, a <> b, a != b
.int 1 + 2 & 3, a ! b, a && b || c
.quad 0x1F, 0b101, 017, 'x', '\n', "str\"ing"
.cws 8,,
.double 1.5e-3, .45, 100e-6
.section .mysec, "aw", @progbits align=8
.for x = 1, x < 16, x + x
.int x
.endr
