# A newline in a block comment ends the statement: the text after `*/` is a new one.
.byte 1, /* c
*/ 2
.byte 3
# An error in a statement whose lines a `\` joined is at its place in the source.
v_add_\
f33 v1, v2, v3
.int 1 + \
nope
