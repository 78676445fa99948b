# args: -g GFX1010 -b rocm
# GCN 1.5 fits up to 20 waves per SIMD: 128 VGPRs allow 4 (wave64), 24 would allow 20.
.kernel k
    .config
        .dims x
        .vgprsnum 128
.text
k:
    .skip 256
    v_mov_b32 v23, 0
    s_endpgm
