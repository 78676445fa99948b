# Kernel descriptors made from `.config` in the LLVM 10 format, as the reference's
# assembler makes them (checked byte for byte against a clrxasm 0.1.9 binary of a real
# GFX1010 kernel). The global data keeps 64 zero bytes a kernel, in kernel order; each
# kernel's descriptor is written over its slot:
#   0  group segment fixed size      (`.group_segment_fixed_size`, `.localsize`)
#   4  private segment fixed size    (`.private_segment_fixed_size`, `.scratchbuffer`)
#   16 code entry offset             (from the descriptor to the code; a given
#                                     `.kernel_code_entry_offset` is ignored, with a warning)
#   44 COMPUTE_PGM_RSRC3             (`.pgmrsrc3`, `.shared_vgprs` in blocks of 8)
#   48 COMPUTE_PGM_RSRC1, 52 RSRC2  (as in the code object v2 descriptor; wave32
#                                     allocates VGPRs by 8)
#   56 kernel code properties        (the `.use_*` SGPR flags; `.use_wave32` is bit 10)
.rocm
.gpu GFX1010
.arch_minor 1
.arch_stepping 0
.eflags 53
.llvm10binfmt
.metadatav3
.md_version 1, 0
.globaldata
    .fill 128, 1, 0
.kernel wide
    .config
        .dims x
        .sgprsnum 96                # RSRC1 SGPR blocks: (96-1)/8 = 11
        .vgprsnum 128               # wave32: (128-1)/8 = 15
        .dx10clamp
        .ieeemode
        .floatmode 0xf0
        .userdatanum 6
        .pgmrsrc1 0x40000000
        .pgmrsrc3 0x400
        .shared_vgprs 16            # 2 blocks
        .group_segment_fixed_size 256
        .kernel_code_entry_offset 0x10c0
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
        .use_wave32                 # and the code below is assembled for 32 lanes
    .config
        .md_symname "wide.kd"
        .md_language "OpenCL C", 1, 2
        .reqd_work_group_size 32, 1, 1
        .md_kernarg_segment_size 16
        .md_kernarg_segment_align 8
        .md_wavefront_size 32
        .md_sgprsnum 96
        .md_vgprsnum 128
        .spilledsgprs 0
        .spilledvgprs 0
        .max_flat_work_group_size 32
        .arg out, "uint*", 8, 0, globalbuf, u32, global, default
        .arg n, "uint", 4, 8, value, u32
.kernel narrow
    .config
        .dims xy
        .group_segment_fixes_size 64  # the documentation's spelling
        .private_segment_fixed_size 32
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
    .config
        .md_symname "narrow.kd"
        .md_kernarg_segment_size 8
        .md_kernarg_segment_align 8
        .md_wavefront_size 64
        .md_sgprsnum 16
        .md_vgprsnum 8
        .spilledsgprs 0
        .spilledvgprs 0
        .max_flat_work_group_size 256
        .arg out, "uint*", 8, 0, globalbuf, u32, global, default
.text
wide:
    v_cmp_gt_u32 vcc_lo, 8, v0
    s_and_saveexec_b32 s0, vcc_lo
    # GCN 1.5's VOP3 takes the literal that SRC1 = -1 makes it need.
    v_cndmask_b32 v4, 0xffffff, -1, vcc_lo
    s_endpgm
.p2align 8
narrow:
    v_mov_b32 v3, s9
    s_endpgm
