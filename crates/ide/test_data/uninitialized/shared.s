# args: -g Tonga -b gallium
# Two kernels in one code section: each from its own start, with its own setup.
.kernel one
    .config
        .dims x
.kernel two
    .config
        .dims xyz
.text
one:
        v_add_f32 v5, v2, v2            # v2: not filled for `one`
        s_endpgm
two:
        v_add_f32 v5, v2, v2            # filled for `two`
        v_add_f32 v6, v3, v3
        s_endpgm
