# Each kernel's refusal is told: two pointers given the same UAV id in one, two
# counters given the same id in the other.
.amd
.gpu Pitcairn
.kernel k
    .config
        .dims x
        .arg a, float*, global, , 12
        .arg b, float*, global, , 12
.kernel k2
    .config
        .dims x
        .arg c1, counter32, 1
        .arg c2, counter32, 1
.text
k:
k2:
    s_endpgm
