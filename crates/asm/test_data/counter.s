# The output counter `.`: assignments and `.org` move it forward only.
.rawcode
.byte 1
. = 4
.int 2
here: .org here + 6, 0xab
.set ., . + 2
.equ ., . + 1
.int . - here
. = 1
.org here - 1
. = %s1
