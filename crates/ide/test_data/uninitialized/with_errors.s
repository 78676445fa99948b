# args: -g Tonga -b gallium
# While the source has errors, a line that did not assemble may be what writes a
# register: nothing is reported.
.kernel k
    .config
        .dims x
.text
k:
        v_bogus v7
        v_add_f32 v5, v7, v7
        s_endpgm
