# args: -g Tonga -b rawcode
# With errors: the lines that assembled, a value not resolved as 0.
        s_mov_b32 s0, undefined_symbol
        v_bogus v1
        s_endpgm
