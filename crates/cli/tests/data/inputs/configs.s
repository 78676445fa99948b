# Register counts in each format's terms: an AMD OpenCL 1.2 kernel with an explicit
# .sgprsnum (reported as written), one with defaults from its code and setup.
.amd
.gpu Pitcairn
.kernel given
    .config
        .dims x
        .sgprsnum 20
        .vgprsnum 30
    .text
        s_mov_b32 s7, s0
        v_mov_b32 v3, v0
        s_endpgm
.kernel derived
    .config
        .dims xy
    .text
        s_mov_b32 s11, s0
        v_mov_b32 v40, v0
        s_endpgm
