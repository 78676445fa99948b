# GalliumCompute takes only weak symbols: each global one is an error at its `.global`.
.gallium
.gpu Tonga
.global first, g
.weak w
.kernel first
    .config
.text
first:
g:
w:
    s_endpgm
