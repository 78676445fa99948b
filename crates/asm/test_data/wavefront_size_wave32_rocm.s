#! format=rocm gpu=gfx1010
# With `.use_wave32` the kernel runs 32-lane waves, whatever `.wavefront_size` says.
.kernel k
    .config
        .dims x
        .use_wave32
        .wavefront_size 64
.kernel both
    .config
        .dims x
        .wavefront_size 32
        .use_wave32
.text
k:
        .skip 256
        s_endpgm
both:
        .skip 256
        s_endpgm
