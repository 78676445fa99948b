# no .gpu: the default generation (GCN1.0) until .arch
        v_add_u$016 v1, v2, v3
        v_add_i$032 v1, vcc, v2, v3
.arch GCN1.4
        v_add_u$016 v1, v2, v3
        v_add_i$032 v1, vcc, v2, v3
        s_mov_b64 flat_scr$0atch, s[0:1]
.macro bump reg, n=1
        v_add_u3$02 \reg, vcc, \n, \reg
.endm
        bu$0mp v1
        .m$0acro
