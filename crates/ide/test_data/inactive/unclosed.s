# args: -g Tonga -b rawcode
# A conditional left open: its false branch runs to the end.
        s_nop 0
.if 0
        s_nop 1
        s_nop 2
