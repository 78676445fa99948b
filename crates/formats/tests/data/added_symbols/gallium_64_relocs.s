# GalliumCompute, 64-bit, with scratch relocations (.rel.text is section 2) and no
# global data: the extra sections start at index 11; the scratch symbol has no ELF
# section and is left out.
.gallium
.gpu Bonaire
.64bit
.weak lab, scratch, ex, endx
.scratchsym scratch
.kernel k
    .config
        .dims x
        .scratchbuffer 16
.section .extra
ex: .int 1
.text
k:
    s_mov_b32 s0, scratch&0xffffffff
lab:
    s_mov_b32 s1, scratch>>32
    s_endpgm
endx = . - k
