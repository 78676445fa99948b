# The LLVM 10 binary format (AMD OpenCL for Navi) with v3 (MessagePack) metadata made
# from the pseudo-ops. The kernel's 64-byte descriptor is made from its configuration
# and written over the first 64 bytes of the global data; its code entry offset is the
# distance from it to the code.
.rocm
.gpu GFX1010
.arch_minor 1
.arch_stepping 0
.eflags 53
.llvm10binfmt
.metadatav3
.md_version 1, 0
.printf 1, 4, 4, "n=%d: %f"
.globaldata
    .fill 64, 1, 0                  # vectorAdd's descriptor
table:
    .int vectorAdd - table, 7
.kernel vectorAdd
    .config
        .dims x
        .sgprsnum 16
        .vgprsnum 16
        .dx10clamp
        .ieeemode
        .floatmode 0xf0
        .userdatanum 6
        .pgmrsrc1 0x60000000
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .use_wave32
    .config
        .md_symname "vectorAdd.kd"
        .md_language "OpenCL C", 1, 2
        .reqd_work_group_size 32, 1, 1
        .work_group_size_hint 32
        .vectypehint float4
        .md_kernarg_segment_size 72
        .md_kernarg_segment_align 8
        .md_group_segment_fixed_size 16
        .md_wavefront_size 32
        .md_sgprsnum 10
        .md_vgprsnum 4
        .spilledsgprs 0
        .spilledvgprs 0
        .max_flat_work_group_size 32
        .arg n, "uint", 4, 0, value, u32
        .arg a, "float*", 8, 8, globalbuf, f32, global, default const restrict
        .arg b, "float*", 8, 16, globalbuf, f32, global, read_only const
        .arg c, "float*", 8, 24, globalbuf, f32, global, default
        .arg lds, "float*", 4, 32, dynshptr, f32, 16, local
        .arg img, "image2d_t", 8, 40, image, struct, write_only
        .arg , "", 8, 48, gox, i64
        .arg , "", 8, 56, goy, i64
        .arg , "", 8, 64, printfbuf, i8
.text
vectorAdd:
    s_load_dword s0, s[4:5], 0x0
    v_mov_b32 v1, 0
    s_waitcnt lgkmcnt(0)
    v_cmp_gt_u32 vcc_lo, s0, v0
    s_and_saveexec_b32 s1, vcc_lo
    s_endpgm
