# Text after the last argument a pseudo-op takes is an error at its first character
# (the reference's "Garbages at end of line"); the pseudo-op then has no effect.
.fill 1,1,1,9
.fill 1,1,1,
.skip 1,2,3
.space ,,
.align 4,0,0,5
.org 1,2,3
.equ x, 1, 2
.set y, 1 ,2
.print "a",
.warning "w" ,x
.text 9
.main 9
.32bit 9
.altmacro 9
.noaltmacro 9
.macrocase 9
.nomacrocase 9
.rept 1,2
.byte 1
.endr
.rept 1
.byte 2
.endr 9
.macro m
.endm 9
m
.exitm 9
.if 1,2
.endif
.if32 9
.endif
.if 7
.else 7
.endif 8
.if 0
.if 1
.else junk
.endif junk
.elseif 1,3
.endif
.scope a
.ends 9
.for i=0, i<1, i+1, 4
.endr
.while 0, 1
.endr
.incbin "x", 1, 2, 3
.include "x", 1
.get_version v, 1
.byte 7
# Still accepted.
.fill 1,1,2
.skip 1,3
.org .+1, 5
.org .+1
.scope
.ends
.file "x"
.ifc a,b,c
.endif
.ifb 1, 2
.endif
.irpc c, a,b
.byte '\c'
.endr
.global q, r, s
.end junk
.byte 8
.end
.byte 9
