# Assignments, forward references, reassignments, `.equiv`, `.eqv`, `.undef`.
.rawcode
.int fwd * 2, chain
a = 5
a = a + 1                # a is 6
.int a
chain = link + 1         # pending definition...
.int chain               # ...this reference waits for it
chain = 100              # reassigned: earlier references keep the old definition
link = 10
fwd = 21
.equiv once, 1
.equiv once, 2           # error: already defined
once = 3                 # error too
.eqv live, a * 2
.int live
a = 1
.int live                # evaluated again: 2
.set live, 4             # error: .eqv symbols cannot be reassigned
.undef a
.int a                   # never defined again: an error
.undef nosuch
lab: .int lab
lab = 4                  # labels cannot be reassigned
.global g1, lab
.local l1
.weak w1
.size lab, 4
.global .
.extern ext1, ext2
1 = 3
x::. = 2
