# Register symbols and a macro shared by kernels.
acc = %v4
base = %s[8:9]
.macro bump reg, step=1
        v_add_u32 \reg, vcc, \step, \reg
.endm
