# Raw v3 metadata in the new layout (without `.llvm10binfmt`): the AMD notes stay, the
# metadata goes in an `AMDGPU` note of type 32, the kernel keeps its 256-byte descriptor
# and no `NAME.kd` symbol.
.rocm
.gpu Fiji
.newbinfmt
.metadatav3
.metadata
    .byte 0x81, 0xae
    .ascii "amdhsa.version"
    .byte 0x92, 1, 0
.globaldata
    .int 1
.kernel k
    .config
        .dims x
.text
k:
    .skip 256
    s_endpgm
