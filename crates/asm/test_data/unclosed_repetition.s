# A repetition without its end (as while one is being typed): the
# missing end is reported at the opener, and the header's own errors too; the rest of
# the file is the block's body, as in the reference.
.rawcode
.byte 1
.rept 2, 3
.byte 2
