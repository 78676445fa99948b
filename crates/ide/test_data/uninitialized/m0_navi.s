# args: -g gfx1010 -b rocm
# GCN 1.5 keeps LDS instructions to no M0 limit; one that goes to GDS still reads its
# size and base from M0 (m0 is reported once per section: kernels here share .text).
.kernel written
    .config
        .dims x
.text
written:
        .skip 256
        s_mov_b32 m0, 0x10000
        ds_add_u32 v0, v0 gds
        ds_read_addtid_b32 v1
        s_endpgm
.kernel gds
    .config
        .dims x
.text
gds:
        .skip 256
        v_lshlrev_b32 v1, 2, v0
        ds_write_b32 v1, v0
        ds_add_u32 v0, v0 gds
        s_endpgm
