# The LLVM 10 layout without `.metadatav3`: a raw `.metadata` goes in an `AMD` note of
# type 10, as in the older formats.
.rocm
.gpu GFX1010
.llvm10binfmt
.metadata
    .ascii "---\nVersion: [ 1, 0 ]\n...\n"
.globaldata
    .fill 64, 1, 0
.kernel k
.text
k:
    s_endpgm
