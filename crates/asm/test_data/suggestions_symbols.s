#! gpu=Tonga
# An unresolved symbol names the defined ones it may be a slip for, in its scope or the
# global one.
loop:
    s_branch lop
    s_branch Loop
    .int counter + 1
counter = 5
.scope inner
here:
    s_branch hre
    s_branch lopp
.ends
    s_branch nothing_like_it
# In an instruction's operand, the special registers are candidates too.
    s_mov_b32 s0, vcc_low
    s_and_b64 exec, exce, s[0:1]
# A name where a scalar register must be: the special registers and register symbols.
    s_mov_b32 exec_low, s0
.set result, %s[4:5]
    s_mov_b64 reslt, 0
