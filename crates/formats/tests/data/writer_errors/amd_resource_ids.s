# Two pointers given the same UAV id (the writer stops at its first refusal).
.amd
.gpu Pitcairn
.kernel k
    .config
        .dims x
        .arg a, float*, global, , 12
        .arg b, float*, global, , 12
.text
k:
    s_endpgm
