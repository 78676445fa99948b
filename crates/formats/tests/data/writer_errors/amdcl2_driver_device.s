# Driver 180005 has no device code for Ellesmere (GCN 1.2).
.amdcl2
.gpu Ellesmere
.driver_version 180005
.kernel k
    .config
        .dims x
.text
k:
    s_endpgm
