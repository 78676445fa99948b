# args: -g Tonga -b rawcode
# Raw code has no kernel setup to start from: nothing is reported.
        v_add_f32 v5, v7, v7
        s_endpgm
