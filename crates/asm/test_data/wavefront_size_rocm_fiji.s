#! format=rocm gpu=Fiji
# GCN 1.0 to 1.4 run 64-lane waves only.
.kernel k
    .config
        .dims x
        .wavefront_size 32
.text
k:
        .skip 256
        s_endpgm
