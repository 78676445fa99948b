# args: -g Tonga -b amd
# One mistake of each kind; the assembler goes on and reports them all.
.kernel k
    .config
        .dims x
        .vgprsnum 4
    .text
        s_frobnicate s0, s1
        v_add_u32 v1, vcc, s4
        s_branch nowhere_defined
        v_pk_add_f16 v1, v2, v3
        v_mov_b32 v9, v0
        s_endpgm
