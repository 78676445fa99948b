# Raw v3 metadata: the `.metadata` bytes go in the `AMDGPU` note (type 32) as written:
# here {"amdhsa.version": [1, 0]}.
.rocm
.gpu GFX1010
.llvm10binfmt
.metadatav3
.metadata
    .byte 0x81, 0xae
    .ascii "amdhsa.version"
    .byte 0x92, 1, 0
.globaldata
    .fill 64, 1, 0
.kernel k
.text
k:
    s_endpgm
