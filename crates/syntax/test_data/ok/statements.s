# statements, labels, separators
label1: init: v_add_i32 v1, vcc, v2, v3
.int 1,2,3; v_nop; nop_count = nop_count+1
1: s_branch 1b
   s_branch 1f ; 1:
sym = 3f-3b // 2   # `//` divides
long = 1 + \
   2
/* block
   comment */ s_endpgm
::ala::sym2 = 7
. = . + 4
