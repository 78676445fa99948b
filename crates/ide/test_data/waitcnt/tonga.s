# args: -g Tonga -b rawcode
# A scalar load used at once: the use is reported, with its wait.
        s_load_dwordx2 s[4:5], s[0:1], 0
        s_add_u32 s6, s5, 1
# Waited for: nothing.
        s_load_dword s7, s[0:1], 8
        s_waitcnt lgkmcnt(0)
        s_add_u32 s6, s7, 1
# Scalar loads return in any order: lgkmcnt(1) does not cover the first.
        s_load_dword s8, s[0:1], 0
        s_load_dword s9, s[0:1], 4
        s_waitcnt lgkmcnt(1)
        s_add_u32 s6, s8, 1
        s_waitcnt lgkmcnt(0)
# Vector loads return in order: vmcnt(1) covers all but the last.
        buffer_load_dword v1, v0, s[8:11], 0 offen
        buffer_load_dword v2, v0, s[8:11], 0 offen offset:4
        s_waitcnt vmcnt(1)
        v_add_f32 v3, v1, v1
        v_add_f32 v3, v2, v3
        s_waitcnt vmcnt(0)
# LDS reads return in order too, unless a scalar load comes in between.
        ds_read_b32 v4, v0
        ds_read_b32 v5, v0 offset:4
        s_waitcnt lgkmcnt(1)
        v_mov_b32 v6, v4
        s_waitcnt lgkmcnt(0)
        ds_read_b32 v4, v0
        s_load_dword s10, s[0:1], 0
        s_waitcnt lgkmcnt(1)
        v_mov_b32 v6, v4
        s_waitcnt lgkmcnt(0)
# Overwriting a register a load still writes.
        buffer_load_dword v7, v0, s[8:11], 0 offen
        v_mov_b32 v7, 0
        s_waitcnt vmcnt(0)
# The address of the next load is still being loaded.
        s_load_dwordx2 s[12:13], s[0:1], 16
        s_load_dword s14, s[12:13], 0
        s_waitcnt lgkmcnt(0)
# A load reading the address an earlier load read, and loads: both mean its old value.
        s_load_dword s1, s[0:1], 0
        s_load_dwordx2 s[2:3], s[0:1], 8
        s_waitcnt lgkmcnt(0)
# A conditional branch: the line goes on.
        s_load_dword s15, s[0:1], 0
        s_cbranch_scc0 skip
        s_add_u32 s6, s15, 1
# A branch goes on at its target (more in control_flow.s).
        s_load_dword s16, s[0:1], 0
        s_branch skip
skip:
        s_add_u32 s6, s16, 1
# FLAT, waited for on vmcnt alone, as kernels do.
        flat_load_dword v8, v[0:1]
        s_waitcnt vmcnt(0)
        v_mov_b32 v9, v8
# A count given by a symbol.
WAIT = 0
        s_load_dword s17, s[0:1], 0
        s_waitcnt lgkmcnt(WAIT)
        s_add_u32 s6, s17, 1
# In a macro: shown in its body (the call as a related place), without a fix.
.macro load_then_use
        s_load_dword s18, s[0:1], 0
        s_add_u32 s6, s18, 1
.endm
        load_then_use
        s_waitcnt lgkmcnt(0)
        s_endpgm
# A vector memory access reads its address before an earlier load returns.
        buffer_load_dword v10, v0, s[8:11], 0 offen
        buffer_store_dword v1, v10, s[8:11], 0 offen
        s_waitcnt vmcnt(0)
# vmcnt holds 15 on GCN 1.2: the 16th load waits for the first.
        buffer_load_dword v21, v0, s[8:11], 0 offen offset:4
        buffer_load_dword v22, v0, s[8:11], 0 offen offset:8
        buffer_load_dword v23, v0, s[8:11], 0 offen offset:12
        buffer_load_dword v24, v0, s[8:11], 0 offen offset:16
        buffer_load_dword v25, v0, s[8:11], 0 offen offset:20
        buffer_load_dword v26, v0, s[8:11], 0 offen offset:24
        buffer_load_dword v27, v0, s[8:11], 0 offen offset:28
        buffer_load_dword v28, v0, s[8:11], 0 offen offset:32
        buffer_load_dword v29, v0, s[8:11], 0 offen offset:36
        buffer_load_dword v30, v0, s[8:11], 0 offen offset:40
        buffer_load_dword v31, v0, s[8:11], 0 offen offset:44
        buffer_load_dword v32, v0, s[8:11], 0 offen offset:48
        buffer_load_dword v33, v0, s[8:11], 0 offen offset:52
        buffer_load_dword v34, v0, s[8:11], 0 offen offset:56
        buffer_load_dword v35, v0, s[8:11], 0 offen offset:60
        buffer_load_dword v36, v0, s[8:11], 0 offen offset:64
        v_mov_b32 v40, v21
        v_mov_b32 v40, v22
        s_waitcnt vmcnt(0)
# An LDS instruction that goes to GDS reads its address and data after it issues.
        ds_write_b32 v50, v51 gds
        v_mov_b32 v51, 0
        s_waitcnt expcnt(0)
        ds_write_b32 v50, v51
        v_mov_b32 v51, 0
        s_endpgm
