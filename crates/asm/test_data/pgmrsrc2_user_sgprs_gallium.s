#! format=gallium gpu=Pitcairn
# GalliumCompute takes `.userdatanum`: 6 here; `.pgmrsrc2` asks for 4.
.kernel k
    .args
    .config
        .dims x
        .userdatanum 6
        .pgmrsrc2 0x88
.text
k:
        s_endpgm
