s_nop 0
.int 1+
