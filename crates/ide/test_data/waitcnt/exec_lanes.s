# args: -g Tonga -b rawcode
# A load writes only the lanes EXEC had when it issued. After `s_andn2_b64 exec, sX,
# exec` (or `s_andn2_saveexec_b64`), EXEC holds none of those lanes, so a VALU write of
# the loaded register there does not race the load: the `else` of a branch on lanes,
# as compilers write it; the load's registers are not followed further (which lanes a
# later use reads is not known). A read, `v_writelane_b32` (which writes a lane
# whatever EXEC is), a scalar register and an EXEC of other origin are still reported.
        s_mov_b64 s[6:7], exec
        s_andn2_b64 exec, s[6:7], s[2:3]
        ds_read_b64 v[6:7], v0 offset:160
        ds_read_b64 v[8:9], v0 offset:168
        s_load_dword s10, s[0:1], 0
        s_andn2_b64 exec, s[6:7], exec
        v_mov_b32 v6, 0
        v_mov_b32 v7, 0
        s_mov_b32 s10, 0
        v_writelane_b32 v8, s1, 0
        s_mov_b64 exec, s[6:7]
        v_add_f32 v7, v7, v7
        s_waitcnt lgkmcnt(0)
        s_andn2_saveexec_b64 s[6:7], s[2:3]
        ds_read_b32 v1, v0
        s_andn2_saveexec_b64 s[6:7], s[6:7]
        v_mov_b32 v1, 0
        s_and_b64 exec, s[6:7], exec
        ds_read_b32 v2, v0
        s_andn2_b64 exec, s[6:7], s[2:3]
        v_mov_b32 v2, 0
        s_endpgm
