.gpu Tonga
        buffer_load_dword v1, v2, s[0:3], 0 $0
        buffer_load_dword v1, v2, s[0:3], 0 of$0
        buffer_load_dword v1, v2, s[0:3], 0 offen gl$0
        v_add_f32 v1, v2, v3 row$0
        v_add_f32 v1, v2, v3 dst_s$0
        v_cmp_eq_f32 vcc, v1, v2 ds$0
        ds_read2_b32 v[1:2], v3 off$0
        s_load_dword s1, s[2:3], 0 $0
        s_add_u32 s1, s2, s3 $0
        v_add_f32 v1, v2, v3$0
        v_add_f32 v1, v[2$0
        v_add_f32 v1, v2, v3 offset:4$0
        v_add_f32_e64 v1, v2, v3 $0
        v_add_f32_sdwa v1, v2, v3 row$0
        v_add_f32_dpp v1, v2, v3 $0
.gpu GFX1010
        global_load_dword v1, v[2:3], off $0
        flat_load_dword v1, v[2:3] l$0
        image_load v[1:4], v[2:5], s[4:11] dmask:15 d$0
