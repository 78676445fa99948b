# args: -g Tonga -b gallium
# A count below what the code uses: the fix sets it, where the kernel's configuration
# writes it (the last time it does).
.kernel k
    .config
        .dims x
        .sgprsnum 7
        .vgprsnum 1
        .vgprsnum 2
.kernel other
    .config
        .dims x
        .vgprsnum 9
.text
k$0:
    s_mov_b32 s11, 0
    v_mov_b32 v5, 0
    s_endpgm
other$0:
    v_mov_b32 v3, 0
    s_endpgm
