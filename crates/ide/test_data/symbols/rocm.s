/* ROCm style: kernel configurations first, then the shared code. */
.rocm
.gpu Fiji
.kernel first
    .config
        .dims x
.kernel second
    .config
        .dims x
.text
first:
    s_endpgm
second:
    s_endpgm
