# args: -g Tonga -b gallium
# GalliumCompute's .sgprsnum includes VCC and the other extra SGPRs: the warning shows
# both parts, as the register usage does.
.kernel k
    .config
        .dims x
        .sgprsnum 7
        .vgprsnum 2
.text
k:
    s_mov_b32 s11, 0
    v_mov_b32 v5, 0
    s_endpgm
