# v3 metadata made from the pseudo-ops outside the LLVM 10 format: the reference's
# `.arg` gives alignments there, which the v3 metadata has no place for; not supported
# yet.
.rocm
.gpu Fiji
.newbinfmt
.metadatav3
.globaldata
    .int 0
.kernel k
    .config
        .dims x
        .arg n, "uint", 4, 4, value, u32
.text
k:
    .skip 256
    s_endpgm
