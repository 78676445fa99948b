# args: -g Tonga -b rawcode
# A macro whose definition was skipped: the statement is the instruction, and hover says so.
.ifarch GCN1.1
.macro v_add_u32 d, c, a, b
    v_add_i32 \d, \c, \a, \b
.endm
.endif
.ifarch GCN1.2
.macro s_trap n
    s_endpgm
.endm
.endif
        v_ad$0d_u32 v1, vcc, v2, v3
        s_tr$0ap 2
