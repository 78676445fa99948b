.macro bump reg
        v_add_u32 \reg, vcc, 1, \reg
.endm
.macro broken reg
        v_add_u32 \reg, vcc, 1
.endm
