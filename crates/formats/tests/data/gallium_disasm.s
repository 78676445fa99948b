# GalliumCompute binary whose code the tests compare with llvm-objdump-14's disassembly
# (scripts/gallium-disasm-fixture.sh makes data/gallium_disasm.objdump from it).
.gallium
.gpu Tonga
.64bit
.kernel first
    .args
        .arg scalar, 4
        .arg global, 8
        .arg griddim, 4
        .arg gridoffset, 4
    .config
        .dims x
.kernel second
    .args
        .arg global, 8
        .arg griddim, 4
        .arg gridoffset, 4
    .config
        .dims xy
.text
first:
    s_load_dwordx2 s[0:1], s[0:1], 0x24
    s_mov_b32 s4, 0x1234
    v_mov_b32 v1, s4
    s_waitcnt lgkmcnt(0)
    v_add_u32 v0, vcc, s2, v0
    flat_store_dword v[0:1], v1
    s_endpgm
second:
    s_mov_b32 s0, 1
    v_add_f32 v2, v1, v0
    v_mul_f32 v3, 2.0, v2
    v_cmp_gt_f32 vcc, v3, v2
    s_cbranch_vccz .Lskip
    v_mov_b32 v4, 0
.Lskip:
    s_endpgm
