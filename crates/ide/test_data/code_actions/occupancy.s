# args: -g Tonga -b gallium
# A count that costs waves: the fix sets it to what the code uses.
.kernel k
    .config
        .dims x
        .vgprsnum 128
.text
k$0:
    v_mov_b32 v5, 0
    s_endpgm
