# A kernel without `.config` needs its raw metadata and header.
.amd
.gpu Pitcairn
.kernel k
.text
    s_endpgm
