# Backslash-newline and comments as the reference line reader joins and ends lines.
.byte 1 # c \
.byte 2
.byte 3
.byte 4 # two \
lines \
three
.byte 5 /* a newline in a comment
*/ .byte 6
.byte 7 /* escaped \
*/ , 8
.ascii "ab\
cd"
.byte '\
a', 'b\
'
/* a whole
line comment */
.byte 9
.macro m
    .byte 10 # continued \
    .byte 11
    .byte 12 /* c
    */ .byte 13
.endm
m
# A `\` joins the lines before words are read: inside a number, a name, an operator.
.byte 1\
4
v_add_\
f32 v1, v2, v3
s_mov_b32 s1, 0x\
10
lab\
el: .byte 3
.int 1 <\
< 4, lab\
el
.if 1\
0 == 10
    .byte 7
.endif
