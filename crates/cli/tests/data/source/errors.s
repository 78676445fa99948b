# Errors in lines with tabs and non-ASCII characters: columns count characters.
s_mov_b32	s0, (1+
.ascii "été" ; s_add_u32 s1, , s2
.int 1, , 2
.if 1
  s_nop 0
