#! max-expansion-depth=20
# A macro calling itself stops at the nesting limit, with a clear error.
.rawcode
.macro down n
    .byte \n
    down \n+1
.endm
down 0
