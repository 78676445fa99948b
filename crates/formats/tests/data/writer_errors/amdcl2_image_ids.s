# Two write-only images given the same resource id.
.amdcl2
.gpu Bonaire
.kernel k
    .config
        .dims x
        .arg i2, image, write_only, 3
        .arg i3, image, write_only, 3
.text
k:
    s_endpgm
