#! format=gallium gpu=Tonga
# Registers used by each kernel: code from a kernel's label to the next kernel label.
.kernel k1
.kernel k2
.text
k1:
    s_mov_b32 s10, s1
    v_mov_b32 v5, v3
    v_add_f32 v1, vcc_lo, v2
    s_endpgm
k2:
    s_mov_b64 s[20:21], exec
    flat_load_dword v7, v[2:3]
    s_mov_b32 flat_scratch_lo, 0
    s_endpgm
