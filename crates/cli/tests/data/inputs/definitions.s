# only definitions, as a file written to be included
.gpu Fiji
.rocm
COUNT = 4
.macro twice r
    v_add_f32 \r, \r, \r
.endm
