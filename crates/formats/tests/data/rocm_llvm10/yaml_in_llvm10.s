# YAML metadata made from the pseudo-ops in the LLVM 10 format: the reference's `.arg`
# gives offsets there, which the YAML has no place for; not supported yet.
.rocm
.gpu GFX1010
.llvm10binfmt
.globaldata
    .fill 64, 1, 0
.kernel k
    .config
        .arg n, "uint", 4, 0, value, u32
.text
k:
    s_endpgm
