.macro test1 a, b=2, c:req, d:vararg
    .int \a, \b
    v_mul_f32 v10,v\c
    .macro inner
    .endm
.endm
test1 12, 34, 5
.rept 4
  s_nop 0
.endr
.irp reg, 0, 1, 4, 5
    v_mul_f32 v10, v\reg
.endr
.if x > 2
    s_nop 1
.elseif x == 1
    .ifarch gcn1.2
        s_nop 2
    .endif
.else
    s_nop 3
.endif
.kernel first
    .config
    .dims xyz
    .arg buf1, "uint*", uint*, global, const, 12
    .text
first: s_endpgm
