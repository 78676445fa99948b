# AMD OpenCL 2.0, driver 1912.05 (inner ELF without a null symbol, sections in the
# older order), 32-bit main ELF, a relocation after the added `&input_bc::&` symbol.
.amdcl2
.gpu Tonga
.driver_version 191205
.global g, k, a
a = 7
.globaldata
g:
    .int 1, 2, 3
.kernel one
    .config
        .dims x
        .setupargs
    .text
        s_mov_b32 s0, g
k:
        s_endpgm
