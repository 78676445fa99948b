# args: -g Pitcairn -b amd
# What an instruction line encodes to, and where.
.kernel first
    .config
        .dims x
.kernel second
    .config
        .dims x

.kernel first
    .text
# Each kernel has a code section of its own.
        s_mov$0_b32 s0, 1
# A literal, and a label defined further on (resolved at the end).
        v_mov_$0b32 v1, 1.5
        s_branch$0 done
        v_add_f32 v1, v1, v1
done:
        s_end$0pgm
.kernel second
    .text
# A macro run three times; a repetition.
.macro twice reg
        v_add_f32$0 \reg, \reg, \reg
.endm
        twice v1
        twice v2
        twice v3
.rept 10
        s_nop$0 0
.endr
# A skipped line is not encoded.
.if 0
        s_nop$0 1
.endif
        s_endpgm
