.macro zero reg
        v_mov_b32 \reg, 0
.endm
