.gpu Tonga
.rocm
.kernel first
.kernel second
.text
first:
        s_load_dwordx4 s[4$0:7], s[0:1], 0
        s_mov_b32 s5, s6
        v_add_u32 v$03, vcc, v3, v2
        v_mov_b32 v[3:4], 0
        s_and_b64 exec, exec, v$0cc
        s_mov_b32 vcc_lo, s5
        s_mov_b32 s[x:x+1], 0
        s_endpgm
second:
        s_mov_b32 s5, 0
        s_en$0dpgm
