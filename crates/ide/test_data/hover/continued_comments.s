# hovering in a continued comment shows nothing \
s_n$0op 0
.text
COUNT = 3
.int 1 # \
COU$0NT
.int COU$0NT
