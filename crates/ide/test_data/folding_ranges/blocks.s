# a comment block
# of three
# lines
.gallium
.kernel k
    .config
        .dims x
        .tgsize
        .sgprsnum 8
.text
.macro bump reg
        v_add_u32 \reg, vcc, 1, \reg
.endm
.rept 2
        s_nop 0
.endr
.if 1
        .int 1
.elseif 2
        .int 2
.else
        .int 3
.endif
/* a block
   comment */
k:      s_endpgm   # one comment
