# args: -g gfx1010 -b rocm
# The global wave sync instructions go to GDS and take their resource's base from M0.
.kernel k
    .config
        .dims x
.text
k:
        .skip 256
        ds_gws_barrier v0 offset:0 gds
        s_endpgm
