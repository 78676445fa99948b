# args: -g GFX1010 -b rawcode
# GCN 1.5 checks these dependencies itself: nothing to report.
        v_readfirstlane_b32 s4, v1
        buffer_load_dword v2, v0, s[8:11], s4 offen
        v_div_scale_f32 v4, vcc, v1, v2, v1
        v_div_fmas_f32 v5, v4, v2, v1
        s_endpgm
