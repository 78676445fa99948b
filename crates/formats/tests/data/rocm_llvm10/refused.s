# What of the LLVM 10 format is refused: `.control_directive` (the descriptor has no
# place for it), and, not supported yet, `.fkernel`, `.gotsym`, an argument without its
# offset and the v3 metadata's values whose defaults are not known. The global data must
# have room for every kernel's descriptor.
.rocm
.gpu GFX1010
.llvm10binfmt
.metadatav3
.globaldata
gdata:
    .fill 64, 1, 0
.gotsym gdata
.kernel k1
    .config
        .dims x
        .sgprsnum 10
        .arg n, "uint", 4, , value, u32
    .control_directive
        .fill 128, 1, 0
.kernel k2
    .fkernel
    .config
        .md_symname "k2.kd"
.text
k1:
    s_endpgm
k2:
    s_endpgm
