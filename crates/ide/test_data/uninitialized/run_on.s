# args: -g Tonga -b gallium
# A kernel whose code runs on into the next one's (no s_endpgm between): the second
# would be followed with the first one's setup, so the section is not checked.
.kernel one
    .config
        .dims x
.kernel two
    .config
        .dims xyz
.text
one:
        v_add_f32 v5, v0, v0
two:
        v_add_f32 v5, v2, v2
        s_endpgm
