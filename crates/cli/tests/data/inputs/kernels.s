# Two GalliumCompute kernels: each one's registers are its own code's.
.gallium
.kernel first
.kernel second
.text
first:
    s_mov_b32 s7, s0
    v_add_f32 v3, vcc_lo, v1
    s_endpgm
second:
    v_mov_b32 v9, v0
    s_endpgm
