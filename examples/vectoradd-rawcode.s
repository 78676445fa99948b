# vectoradd-rawcode.s: the code of examples/vectoradd.s alone, as raw machine code
# (no binary format around it), for a GCN 1.0 GPU:
#
#     gcnasm -b rawcode -g CapeVerde -o vectoradd.bin examples/vectoradd-rawcode.s
#
# c[i] = a[i] + b[i] for every i < n; the argument layout is described in vectoradd.s.

.rawcode
.gpu CapeVerde

vectorAdd:
    s_load_dword    s5, s[0:1], 6           # local size in x
    s_load_dword    s6, s[0:1], 15          # n
    s_load_dword    s7, s[0:1], 17          # global offset in x
    s_load_dwordx2  s[8:9], s[0:1], 9       # a
    s_load_dwordx2  s[12:13], s[0:1], 11    # b
    s_load_dwordx2  s[16:17], s[0:1], 13    # c
    s_waitcnt       lgkmcnt(0)
    s_mul_i32       s5, s4, s5              # group id * local size
    s_add_u32       s5, s5, s7              # + global offset
    v_add_i32       v0, vcc, s5, v0         # i = global id
    v_cmp_gt_u32    vcc, s6, v0             # lanes with i < n ...
    s_and_saveexec_b64 s[20:21], vcc        # ... are the only ones left on
    s_cbranch_execz vectorAdd_end
    v_lshlrev_b32   v1, 2, v0               # v[1:2] = i * 4, the byte offset
    v_mov_b32       v2, 0
    s_mov_b32       s10, 0                  # buffer resources: base = the pointer,
    s_mov_b32       s11, 0xf000             # 32-bit data, addressed by addr64
    s_mov_b64       s[14:15], s[10:11]
    s_mov_b64       s[18:19], s[10:11]
    buffer_load_dword v3, v[1:2], s[8:11], 0 addr64     # a[i]
    buffer_load_dword v4, v[1:2], s[12:15], 0 addr64    # b[i]
    s_waitcnt       vmcnt(0)
    v_add_f32       v3, v3, v4
    buffer_store_dword v3, v[1:2], s[16:19], 0 addr64   # c[i]
vectorAdd_end:
    s_endpgm
