.gpu Tonga
.gallium
.macro bump reg, n=1
  s_nop 0
.endm
.kernel k
    .config
        .tg$0
        $0
.text
FACTOR = 3
k:
        v_add_u$0
        s_mov_b32 s0, F$0
loop:   $0
        .i$0
        bu$0
.arch $0
.gpu Ton$0
