#! max-expanded-statements=100
# Expansions that never end stop at the statement limit.
.rawcode
.while 1
    .byte 1
.endr
