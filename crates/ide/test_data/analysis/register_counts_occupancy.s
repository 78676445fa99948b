# args: -g Tonga -b gallium
# Counts far above what the code uses cost waves: a hint, with the fix that sets them to
# what the code uses. A count above it that costs no wave, or one of a kernel whose other
# count limits it the same, is left alone.
.kernel wide
    .config
        .dims x
        .sgprsnum 96
        .vgprsnum 128
.kernel roomy
    .config
        .dims x
        .vgprsnum 24
.text
wide:
    s_mov_b32 s11, 0
    v_mov_b32 v5, 0
    s_endpgm
roomy:
    v_mov_b32 v20, 0
    s_endpgm
