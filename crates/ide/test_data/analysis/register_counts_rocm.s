# args: -g Fiji -b rocm
# ROCm's kernel configuration takes .sgprsnum/.vgprsnum too: a count below what the code
# uses gets the editor's warning (gcnasm, as the reference, writes the count it is given).
.kernel k
    .config
        .dims x
        .sgprsnum 7
        .vgprsnum 2
.text
k:
    .skip 256
    s_mov_b32 s11, 0
    v_mov_b32 v5, 0
    s_endpgm
