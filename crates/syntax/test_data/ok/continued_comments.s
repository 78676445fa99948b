.byte 1 # c \
.byte 2
.byte 3
.byte 4 # two \
lines \
three
.byte 5 /* c
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
