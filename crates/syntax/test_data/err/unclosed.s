.int (1+2*
s_add_u32 s1, , s2
.if 1
  .macro m
    s_nop
