#! format=rocm gpu=Iceland
# ROCm: the kernel's descriptor goes over the first 256 bytes of its code; code and
# global data lie 4096 - 2460 bytes apart in the binary (the notes, with the metadata
# made from the pseudo-ops, come first), so expressions between them get values at
# the end.
.arch_minor 0
.arch_stepping 0
.eflags 2
.newbinfmt
.target "amdgcn-amd-amdhsa-amdgizcl-gfx800"
.md_version 1, 0
.globaldata
gdata1:
        .int 1, 2, 3, 4, 6
gdata2:
        .int vectorAdd - gdata2 + 2
diff = vectorAdd - gdata1
twice = diff * 2
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
        .arg b, "float*", 8, 8, globalbuf, f32, global, default const
        .arg c, "float*", 8, 8, globalbuf, f32, global, default
        .arg , "", 8, 8, gox, i64
        .arg , "", 8, 8, goy, i64
        .arg , "", 8, 8, goz, i64
.text
vectorAdd:
        .skip 256
        s_mov_b32 s1, . - gdata2
        s_branch vectorAdd + (vectorAdd - gdata2)
        .int (vectorAdd < gdata1) + (vectorAdd > gdata1)
        s_endpgm
