# A listing: an AMD kernel's own code section, a macro run twice, a repetition, and a
# literal and a label resolved at the end.
.amd
.gpu Pitcairn
.macro twice reg
        v_add_f32 \reg, \reg, \reg
.endm
.kernel k
    .config
        .dims x
    .text
        v_mov_b32 v1, later
        twice v1
        twice v2
.rept 2
        s_nop 0
.endr
        s_branch done
done:
        s_endpgm
later = 0x12345
