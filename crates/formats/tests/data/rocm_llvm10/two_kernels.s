# Two kernels: their `NAME.kd` symbols name 64-byte descriptors one after the other at
# the start of `.rodata`, made from their configurations. Without `.eflags` the ELF flags are 51; `.target` writes no
# note in this format. The v3 metadata takes the group and private segment sizes from
# the descriptors.
.rocm
.gpu GFX1010
.llvm10binfmt
.metadatav3
.target "amdgcn-amd-amdhsa--gfx1010"
.globaldata
    .fill 128, 1, 0
.kernel first
    .config
        .dims x
        .localsize 1024
        .scratchbuffer 16
        .floatmode 0xf0
        .dx10clamp
        .ieeemode
        .userdatanum 6
        .pgmrsrc1 0x60000000
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .md_symname "first.kd"
        .md_kernarg_segment_size 8
        .md_kernarg_segment_align 8
        .md_wavefront_size 64
        .md_sgprsnum 8
        .md_vgprsnum 2
        .spilledsgprs 0
        .spilledvgprs 1
        .max_flat_work_group_size 256
        .arg out, "int*", 8, 0, globalbuf, i32, global
.kernel second
    .config
        .dims x
        .private_segment_fixed_size 256
        .floatmode 0xf0
        .dx10clamp
        .ieeemode
        .userdatanum 6
        .pgmrsrc1 0x60000000
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .use_wave32
        .md_symname "second.kd"
        .md_kernarg_segment_size 0
        .md_kernarg_segment_align 4
        .md_wavefront_size 32
        .md_sgprsnum 4
        .md_vgprsnum 1
        .spilledsgprs 2
        .spilledvgprs 0
        .max_flat_work_group_size 1024
.text
first:
    s_endpgm
.p2align 8
second:
    s_nop 0
    s_endpgm
.section .comment
    .ascii "two kernels"
