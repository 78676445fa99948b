# args: -g GFX1010 -b rawcode
# GCN 1.5's hazards counted in wait states.
# A buffer instruction with offset bit 1 or 2 just after an NSA image instruction of
# 16 bytes or more (six addresses).
        image_sample_d v[10:12], [v1,v2,v3,v4,v5,v6], s[16:23], s[24:27] dmask:7 dim:2d
        buffer_load_dword v20, v0, s[8:11], 0 offen offset:2
# Five addresses make 12 bytes: no hazard.
        image_sample_d v[10:12], [v1,v2,v3,v4,v5], s[16:23], s[24:27] dmask:7 dim:2d
        buffer_load_dword v20, v0, s[8:11], 0 offen offset:4
# Offset bits 1 and 2 clear: no hazard.
        image_sample_d v[10:12], [v1,v2,v3,v4,v5,v6], s[16:23], s[24:27] dmask:7 dim:2d
        buffer_load_dword v20, v0, s[8:11], 0 offen offset:8
# One instruction between is enough.
        image_sample_d v[10:12], [v1,v2,v3,v4,v5,v6], s[16:23], s[24:27] dmask:7 dim:2d
        s_nop 0
        buffer_load_dword v20, v0, s[8:11], 0 offen offset:6
# s_denorm_mode 2 wait states after a floating-point atomic.
        buffer_atomic_fmin v1, v0, s[8:11], 0 offen
        s_mov_b32 s0, 0
        s_mov_b32 s1, 0
        s_denorm_mode 0
# A VALU instruction between ends it.
        global_atomic_fcmpswap v[2:3], v[4:5], off
        v_nop
        s_denorm_mode 0
# So does a wait.
        flat_atomic_fmax v1, v[4:5], v2
        s_waitcnt_vscnt null, 0
        s_denorm_mode 0
# Three instructions, or an s_nop 2, are enough; an integer atomic has no such hazard.
        image_atomic_fmax v1, v[4:5], s[16:23] dmask:1 dim:2d unorm
        s_nop 2
        s_denorm_mode 0
        buffer_atomic_add v1, v0, s[8:11], 0 offen
        s_denorm_mode 0
        s_endpgm
