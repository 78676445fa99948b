# Macros: parameters, defaults, :req, :vararg, \@, \(), .exitm, .purgem, case.
.rawcode
.macro pair a, b=7
    .byte \a, \b
.endm
pair 1, 2
pair 3
pair , 4
.macro need x:req, rest:vararg
    .byte \x
    .ascii "\rest"
.endm
need 9, a, b c
need
.macro count
    .byte \@
.endm
count
count
.macro glue n
    lab\n\()x: .byte 0x\n
.endm
glue 42
.byte lab42x
.macro early v
    .if \v
    .exitm
    .endif
    .byte 0xee
.endm
early 1
early 0
.macro MiXed
    .byte 0x55
.endm
mixed
.purgem MIXED
.purgem mixed
.macro args a b c
    .ascii "\a|\b|\c"
.endm
args x y z
args "q r", s  t
args a ! A 4 ++ 5
.macro pair
.endm
.macro .byte
.endm
.macro bad x:what
.endm
.macro twice x, x
.endm
