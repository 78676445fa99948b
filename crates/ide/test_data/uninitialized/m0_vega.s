# args: -g gfx900 -b amdcl2
# From GCN 1.4 LDS instructions no longer keep to M0; those that go to GDS, and those
# that take a base from M0 (*_addtid_b32), still read it.
.kernel k
    .config
        .dims x
        .localsize 256
.text
        v_lshlrev_b32 v1, 2, v0
        ds_write_b32 v1, v0
        ds_read_addtid_b32 v2
        s_endpgm
.kernel gds
    .config
        .dims x
.text
        ds_add_u32 v0, v0 gds
        s_endpgm
