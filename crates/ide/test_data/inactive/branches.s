# args: -g Tonga -b gallium
# The branches the assembler did not take are faded; those it took are not.
SMUL = 1
.ifarch GCN1.2
    SMUL = 4
.elseifarch GCN1.4
    SMUL = 8
    SMUL = 9
.else
    SMUL = 2
.endif
.iffmt amd    # if AMD Catalyst
        s_nop 1
.elseiffmt gallium
        s_nop 2
.endif
# Nested: a false branch inside a taken one; an inner conditional of a skipped branch
# is part of it.
.if SMUL == 4
    .if 0
        s_nop 3
    .endif
.else
    .if 1
        s_nop 4
    .endif
.endif
# In a macro the branch may go another way on another run: not faded.
.macro pick x
    .if \x
        s_nop 5
    .else
        s_nop 6
    .endif
.endm
        pick 1
        pick 1
# An empty branch has no line to fade.
.if 0
.endif
        s_endpgm
