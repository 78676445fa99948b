# A macro definition without its end (as while one is being typed): the missing end is
# reported at the opener, and the header's own errors too; the rest of the file is its
# body, as in the reference, and the macro is not defined.
.rawcode
.byte 1
.macro m a, a
.byte 2
