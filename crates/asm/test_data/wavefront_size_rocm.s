#! format=rocm gpu=gfx1010
# Runtimes start a kernel with 32 lanes by the wave32 bit of its code properties, which
# `.use_wave32` sets; `.wavefront_size` only fills the descriptor's field. A disassembly
# of a wave32 kernel by a CLRX that did not know the bit has the field alone: the kernel
# then runs 64-lane waves (and its code is assembled for 64 lanes).
.kernel alone
    .config
        .dims x
        .wavefront_size 32
.kernel wave64
    .config
        .dims x
        .wavefront_size 64
.text
alone:
        .skip 256
        s_endpgm
wave64:
        .skip 256
        s_endpgm
