# args: -g Tonga -b amdcl2
# On GCN 1.0 to 1.2 an LDS instruction keeps its addresses below M0, which no kernel
# setup fills: one before anything writes M0 is reported, once.
.kernel nolimit
    .config
        .dims x
        .localsize 256
.text
        v_lshlrev_b32 v1, 2, v0
        ds_write_b32 v1, v0
        ds_read_b32 v2, v1
        s_endpgm
# Written first: nothing to report. Instructions that do not go to memory read no M0.
.kernel limited
    .config
        .dims x
        .localsize 256
.text
        v_lshlrev_b32 v1, 2, v0
        ds_bpermute_b32 v3, v1, v0
        s_mov_b32 m0, -1
        ds_write_b32 v1, v0
        s_endpgm
# Written on one path only: it may be written, nothing is said.
.kernel branch
    .config
        .dims x
        .localsize 256
.text
        v_lshlrev_b32 v1, 2, v0
        s_cmp_eq_u32 s0, 0
        s_cbranch_scc0 skip
        s_mov_b32 m0, -1
skip:
        ds_write_b32 v1, v0
        s_endpgm
