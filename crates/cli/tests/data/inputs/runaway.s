# A repetition that runs away with an error in its body: the assembly stops at the
# error limit, saying so, instead of filling the memory.
.rawcode
.gpu Tonga
.for x = 0, x < 16, x + x
        v_bogus v1
.endr
