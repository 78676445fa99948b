# args: -g gfx1010 -b rocm
# On GCN 1.5 too, *_addtid_b32 takes its base address from M0.
.kernel k
    .config
        .dims x
.text
k:
        .skip 256
        ds_write_addtid_b32 v0
        s_endpgm
