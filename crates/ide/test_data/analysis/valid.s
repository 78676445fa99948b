# args: -g Tonga --llvmVersion=30900
# Two GalliumCompute kernels: each one's counts come from its own code.
.gallium
.kernel first
    .config
        .dims x
.kernel second
    .config
        .dims xyz
.text
first:
        s_mov_b32 s7, s0
        v_add_f32 v3, vcc_lo, v0
        s_endpgm
second:
        v_mov_b32 v40, v0
        s_mov_b32 flat_scratch_lo, s0
        s_endpgm
