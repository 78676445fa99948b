# args: -g Tonga -b gallium
# A register read before anything writes it, from the kernel's start: reported once,
# with what the setup fills (GalliumCompute: 4 user SGPRs, a work-group id per
# dimension; a work-item id VGPR per dimension).
.kernel k
    .config
        .dims xy
.macro twice reg
        v_add_f32 v9, \reg, \reg
.endm
.text
k:
        s_add_u32 s0, s5, 0            # s5: the work-group id y, filled
        v_add_f32 v3, v1, v1            # v1: the work-item id y, filled
        v_add_f32 v4, v3, v7        # v7: never written
        v_add_f32 v4, v3, v7        # reported once
        s_add_u32 s1, s6, 1         # s6: past what the setup fills
        s_load_dwordx4 s[8:11], s[0:1], 0
        s_waitcnt lgkmcnt(0)
        s_and_b64 s[2:3], s[10:11], -1
        s_and_b64 s[2:3], s[12:13], -1  # s[12:13]: never written
        twice v20                   # in a macro: reported at the call
# A buffer instruction without offen, idxen or addr64 does not read VADDR.
        buffer_load_dword v5, v30, s[8:11], 0
# Written on one path of a branch: it may be written.
        s_cbranch_scc0 skip
        v_add_f32 v40, 0, 0
skip:
        v_add_f32 v41, v40, v40
# Written later in a loop: written on the way round.
loop:
        v_add_f32 v42, v43, v42
        v_add_f32 v43, 1.0, 1.0
        s_cbranch_scc1 loop
# After a call, the callee may have written anything.
        s_getpc_b64 s[20:21]
        s_swappc_b64 s[20:21], s[20:21]
        v_add_f32 v50, v51, v51
        s_endpgm
