.int (1+
s_add_u32 s1, , s2
