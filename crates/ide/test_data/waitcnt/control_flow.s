# args: -g Tonga -b rawcode
# Paths are followed through branches, loops and joins.
# A load at the end of a loop, read at its start on the next iteration.
        s_mov_b32 s2, 8
loop1:
        v_add_f32 v2, v1, v2
        buffer_load_dword v1, v0, s[8:11], 0 offen
        s_sub_u32 s2, s2, 1
        s_cbranch_scc0 loop1
        s_waitcnt vmcnt(0)
# A software-pipelined loop that waits at the top: nothing to report.
        buffer_load_dword v3, v0, s[8:11], 0 offen
loop2:
        s_waitcnt vmcnt(0)
        v_add_f32 v4, v3, v4
        buffer_load_dword v3, v0, s[8:11], 0 offen
        s_sub_u32 s2, s2, 1
        s_cbranch_scc0 loop2
        s_waitcnt vmcnt(0)
# Two paths join: the load is in flight on one of them.
        s_cmp_eq_u32 s2, 0
        s_cbranch_scc1 else1
        s_load_dword s20, s[0:1], 0
        s_branch join1
else1:
        s_mov_b32 s21, 0
join1:
        s_add_u32 s22, s20, 1
        s_waitcnt lgkmcnt(0)
# Waited for on one path only.
        s_load_dword s23, s[0:1], 0
        s_cbranch_scc1 join2
        s_waitcnt lgkmcnt(0)
join2:
        s_add_u32 s22, s23, 1
        s_waitcnt lgkmcnt(0)
# Waited for on both paths: nothing to report.
        s_load_dword s24, s[0:1], 0
        s_cbranch_scc1 join3
        s_waitcnt lgkmcnt(0)
        s_branch use3
join3:
        s_waitcnt lgkmcnt(0)
use3:
        s_add_u32 s22, s24, 1
# The wait suggested holds on every path: here the fewer loads after it on one path.
        buffer_load_dword v5, v0, s[8:11], 0 offen
        s_cbranch_scc1 join4
        buffer_load_dword v6, v0, s[8:11], 0 offen
        buffer_load_dword v7, v0, s[8:11], 0 offen
        s_branch use4
join4:
        buffer_load_dword v6, v0, s[8:11], 0 offen
use4:
        v_mov_b32 v8, v5
        s_waitcnt vmcnt(0)
# A branch forward over a wait, to a label defined further on.
        s_load_dword s25, s[0:1], 0
        s_cbranch_vccz later
        s_waitcnt lgkmcnt(0)
        s_nop 0
later:
        s_add_u32 s22, s25, 1
        s_waitcnt lgkmcnt(0)
        s_endpgm
# After s_endpgm, code that no known branch reaches starts with nothing in flight
# (another kernel's entry, or a target of s_setpc_b64).
second_kernel:
        s_add_u32 s22, s25, 1
        s_load_dword s26, s[0:1], 0
        s_setpc_b64 s[30:31]
        s_add_u32 s22, s26, 1
# A loop that nothing enters is followed from nothing in flight too.
        s_endpgm
loop3:
        s_add_u32 s22, s27, 1
        s_load_dword s27, s[0:1], 0
        s_branch loop3
