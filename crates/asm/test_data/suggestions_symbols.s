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
