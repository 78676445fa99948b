# args: -b rawcode -g Tonga
# Names in a branch the assembler skips are not recorded by it: go to definition finds
# their definition in the file's text (the first of that name), references stay empty.
.ifarch GCN1.4
    .macro vadd3 d, a, b
        v_add_u32 \d, \a, \b
    .endm
skipped_label:
    vadd3 v1, v2, v3
    s_branch skipped_label
.else
    .macro vadd3 d, a, b
        v_add_u32 \d, vcc, \a, \b
    .endm
    vadd3 v1, v2, v3
.endif
    s_branch nowhere_at_all
#> vadd3 1
#> skipped_label 1
#> vadd3 3
#> nowhere_at_all
