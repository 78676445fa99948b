# Scopes, paths and usings.
.rawcode
x = 1
.scope a
    x = 2
    y = 3
    .scope b
        x = 4
    .ends
    .byte x, ::x, b::x
.ends
.byte x, a::x, a::b::x, y
.using a
.byte y
.unusing a
.scope
    t = 9              # temporary: gone when closed
.ends
.scope c
    .using ::a::b
    .byte x            # c has no x: the usings first, then outwards
.ends
.ends
