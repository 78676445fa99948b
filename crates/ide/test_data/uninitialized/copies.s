# args: -g Tonga -b gallium
# A move whose source nothing wrote is not reported, and its destination stays
# unwritten: compilers copy undefined values. Where such a copy is read, the warning
# says that only such moves put a value in it.
.kernel k
    .config
        .dims x
.text
k:
        v_mov_b32 v15, v1
        s_mov_b64 s[20:21], s[30:31]
        v_mov_b32 v4, v7
        v_add_f32 v5, v4, v4
        v_mov_b32 v6, v0
        v_add_f32 v5, v6, v6
        s_endpgm
