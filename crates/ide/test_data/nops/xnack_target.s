# args: -g gfx900 -b rocm
# A ROCm target with XNACK on turns the soft clause check on too.
.target "amdgcn-amd-amdhsa--gfx902+xnack"
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_load_dwordx2 s[4:5], s[0:1], 0
        s_load_dwordx2 s[0:1], s[6:7], 0
        s_waitcnt lgkmcnt(0)
        s_endpgm
