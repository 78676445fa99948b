#! format=amd
# A pseudo-op of another binary format says which format has it, and which one is in use.
.kernel k
    .config
        .setupargs
        .usegeneric
        .dims x
    .text
        s_endpgm
.no_such_pseudo_op
