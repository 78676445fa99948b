# names: labels used before and after their definition, symbols, and the names of
# pseudo-ops that are not symbols (devices, dimensions, kernels, argument kinds)
.gpu Tonga
.arch GCN1.2
.kernel k
    .config
        .dims xy
    .args
        .arg global, 8, 8, 8, zext, general
        .arg n, "uint", uint
.ifgpu Tonga
.endif
SIZE = 16
.set half, SIZE / 2
.text
k:      s_branch done
back:   s_add_u32 s0, s0, half
        s_cbranch_scc0 back
        s_mov_b32 s1, done - k
done:   s_endpgm
.section .mydata
.macro twice x
.endm
.purgem twice
