.kernel
orphan:
.set
.set , 3
.set a b, 4
x =
. = . + 4
.macro
.endm
.if 1
inside_if:
.kernel unclosed
in_kernel: s_endpgm
