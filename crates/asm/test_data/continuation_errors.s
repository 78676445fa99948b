# A newline in a block comment ends the statement: the text after `*/` is a new one.
.byte 1, /* c
*/ 2
.byte 3
