# shared by the kernels
count = 4
acc = %v3
.macro bump reg
        v_add_u32 \reg, vcc, 1, \reg
.endm
