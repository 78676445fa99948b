# args: -g Tonga -b rawcode -I include
# Names as the assembler resolves them: labels, local labels (1b/1f go to the right
# 1:), scoped symbols, macros from an included file, symbols set by pseudo-ops.
.include "helpers.s"
count = 4
.set twice, count * 2
.scope inner
    count = 7
    x = count + ::count
.ends
start:
1:      s_nop inner::x
        s_branch 1f
        bump v1
1:      s_branch 1b
        s_branch start
        s_nop twice
