# Two write-only images given the same resource id, in each of two kernels.
.amdcl2
.gpu Bonaire
.kernel k
    .config
        .dims x
        .arg i2, image, write_only, 3
        .arg i3, image, write_only, 3
.kernel k2
    .config
        .dims x
        .arg j1, image, read_only, 5
        .arg j2, image, read_only, 5
.text
k:
k2:
    s_endpgm
