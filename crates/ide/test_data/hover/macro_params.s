.macro jump target, count=1
        s_nop \cou$0nt
        s_branch \tar$0get
.endm
.macro m2 a$0 b:req
        .int \a, \b, \a
.endm
.irp re$0g, v1, v2
        v_mov_b32 \reg, 0
.endr
.macro unused x$0
.endm
.macro version major, minor
    .ascii "v\major\().\mi$0nor"
.endm
.macro unique
lab\@$0:
    .int \$0@
.endm
