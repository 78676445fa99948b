# ROCm code object whose code the tests compare with llvm-objdump-14's disassembly
# (scripts/rocm-disasm-fixture.sh makes data/rocm_disasm.objdump from it).
.rocm
.gpu Fiji
.newbinfmt
.globaldata
table:
    .int 1, 2, 3, 4
.kernel vectorAdd
    .config
        .dims x
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .private_elem_size 4
        .use_ptr64
        .md_language "OpenCL", 1, 2
        .arg n, "uint", 4, 4, value, u32
        .arg a, "float*", 8, 8, globalbuf, f32, global, default const
        .arg c, "float*", 8, 8, globalbuf, f32, global, default
.kernel second
    .config
        .dims xy
.text
vectorAdd:
    .skip 256
    s_load_dword s0, s[6:7], 0x0
    s_load_dwordx4 s[8:11], s[6:7], 0x8
    s_waitcnt lgkmcnt(0)
    v_cmp_gt_u32 vcc, s0, v0
    s_and_saveexec_b64 s[0:1], vcc
    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v2, s9
    v_add_u32 v1, vcc, s8, v1
    v_addc_u32 v2, vcc, 0, v2, vcc
    flat_load_dword v3, v[1:2]
    s_waitcnt vmcnt(0) & lgkmcnt(0)
    v_mul_f32 v3, 2.0, v3
    flat_store_dword v[1:2], v3
    s_endpgm
.p2align 8
second:
    .skip 256
    s_mov_b32 s0, 1
    s_cbranch_scc0 second + 256 + 12
    v_mov_b32 v0, s0
    s_endpgm
