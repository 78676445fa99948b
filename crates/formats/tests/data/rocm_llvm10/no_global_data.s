# The LLVM 10 format keeps the kernel descriptors in the global data: it must exist.
.rocm
.gpu GFX1010
.llvm10binfmt
.metadatav3
.metadata
    .byte 0x80
.text
    s_endpgm
