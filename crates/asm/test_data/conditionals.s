# Every .if form, .elseif and .else.
.rawcode
v = 2
.if v - 2
    .byte 1
.elseif v
    .byte 2
.else
    .byte 3
.endif
.ifeq 0 ; .byte 4 ; .endif
.ifne 0 ; .byte 0xff ; .endif
.ifgt 1 ; .byte 5 ; .endif
.ifge 0 ; .byte 6 ; .endif
.iflt -1 ; .byte 7 ; .endif
.ifle 1 ; .byte 0xff ; .endif
.ifdef v ; .byte 8 ; .endif
.ifndef nothere ; .byte 9 ; .endif
.ifnotdef v ; .byte 0xff ; .endif
.ifb ; .byte 10 ; .endif
.ifnb x ; .byte 11 ; .endif
.ifc a + b, a+b ; .byte 12 ; .endif
.ifnc a, b ; .byte 13 ; .endif
.ifeqs "x", "x" ; .byte 14 ; .endif
.ifnes "x", "y" ; .byte 15 ; .endif
.ifarch GCN1.0 ; .byte 16 ; .endif
.ifnarch GCN1.2 ; .byte 17 ; .endif
.ifgpu CapeVerde ; .byte 18 ; .endif
.ifngpu Tonga ; .byte 19 ; .endif
.iffmt raw ; .byte 20 ; .endif
.ifnfmt catalyst ; .byte 21 ; .endif
.if32 ; .byte 22 ; .endif
.if64 ; .byte 0xff ; .endif
.if 0
    .byte 0xff
.elseifdef v
    .byte 23
.elseif 1
    .byte 0xff
.endif
.if undefined_symbol
    .byte 0xff
.endif
.ifarch GCN9.9
.endif
.if 0
    this is not assembled (
.endif
