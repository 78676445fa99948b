# Raw v3 metadata in the new layout (without `.llvm10binfmt`): an `AMDGPU` note, which
# the reference's writer accepts only with global data.
.rocm
.gpu Fiji
.newbinfmt
.metadatav3
.metadata
    .byte 0x80
.text
    s_endpgm
