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
