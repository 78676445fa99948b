# What of the LLVM 10 format is not supported yet: kernel descriptors made from
# configuration pseudo-ops (the reference builds them; here the source writes them),
# `.control_directive`, `.fkernel`, `.gotsym`, an argument without its offset, and the
# v3 metadata's values whose defaults are not known.
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
