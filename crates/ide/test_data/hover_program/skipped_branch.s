# args: -g Tonga -b rawcode
# Hover in a branch the assembler skips: a macro call and a label use there.
.ifarch GCN1.4
.macro vadd3 d, a, b
    v_add_u32 \d, \a, \b
.endm
skipped_label:
    vad$0d3 v1, v2, v3
    s_branch skipped_l$0abel
.endif
    s_endpgm
