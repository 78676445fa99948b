#! gpu=Tonga
# A macro defined in a block that is skipped does not exist: a statement named like it
# is the instruction (GatelessGate's ethash kernels define `v_add_u32` and others only
# under `.ifarch gcn1.1`). The parser cannot know which branch is taken, so it reads
# these statements as macro calls; the assembler gives them back to the encoder.
.rawcode
.if 0
.macro s_nop a
    s_endpgm
.endm
.endif
    s_nop 1
.ifarch GCN1.1
.macro v_add_u32 d, c, a, b
    v_add_i32 \d, \c, \a, \b
.endm
.endif
    v_add_u32 v1, vcc, v2, v3
.if 1
.else
.macro s_sleep t
.endm
.endif
    s_sleep 2 # comment
# Taken, the macro is called.
.ifarch GCN1.2
.macro s_trap n
    s_endpgm
.endm
.endif
    s_trap 5
# A name that is neither is still an error, at its own line and column.
.if 0
.macro not_an_instruction
.endm
.endif
    not_an_instruction x
# Errors of the instruction are reported where it is written.
    s_nop 1, 2
# In a macro's expansion the same holds.
.macro outer
    s_nop 3
.endm
    outer
