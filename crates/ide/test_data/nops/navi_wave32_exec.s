# args: -g GFX1010 -b rawcode -3
# In wave32 EXEC is `exec_lo`: a vector memory instruction reads only it, and
# `v_cmpx_*` writes only it, so `exec_hi` takes part in no hazard.
        buffer_load_dword v2, v0, s[8:11], 0 offen
        s_mov_b32 exec_hi, 0
        s_mov_b32 s7, exec_hi
        v_cmpx_lt_f32 v1, v2
# `exec_lo` still does.
        buffer_load_dword v2, v0, s[8:11], 0 offen
        s_mov_b32 exec_lo, -1
        s_mov_b32 s7, exec_lo
        v_cmpx_lt_f32 v1, v2
        s_endpgm
