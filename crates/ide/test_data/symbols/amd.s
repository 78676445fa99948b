# AMD Catalyst style: two kernels, each with its own code.
.amd
.gpu Pitcairn
GLOBAL_SIZE = 64
.set flags, 1 << 3
.macro load_arg reg, off
    s_load_dword \reg, s[0:1], \off
.endm

.kernel add
    .config
        .dims x
        .arg a, float*, global
    .text
add:
    s_mov_b32 s4, GLOBAL_SIZE
1:  s_sub_u32 s4, s4, 1
    s_cbranch_scc0 1b
loop_end: s_endpgm
    .equ ADD_LOCAL, 3

.kernel mul
    .config
        .dims xy
    .text
mul:    load_arg s2, 0
.if flags & 8
    fast_path:
        MUL_MODE = 1
.else
    slow_path:
        .eqv MUL_MODE, 2
.endif
    s_endpgm
.main
trailer: .int 0
.equiv END_MARK, .
