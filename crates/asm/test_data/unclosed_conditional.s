# Conditionals without their .endif (as while one is being typed): the reference still
# takes their branches and reports each unterminated .if; everything after the .if is
# assembled and its errors reported, not skipped.
.rawcode
.byte 1
.if 1
    .byte 2
    .ifdef nothere
        .byte 0xff
    .else
        .byte 3
        s_bogus
        .byte 4
