# `.amd3` picks ROCm: its configuration pseudo-ops are offered.
.amd3
.gpu GFX1010
.kernel k
    .config
        .use_d$0
