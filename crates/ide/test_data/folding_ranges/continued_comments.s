.text
# one comment \
over two lines
s_nop 0
# a run of \
comment lines
# folds whole
.byte 1 /* block
comment */ .byte 2
