# args: -g Tonga -b rawcode
# GCN 1.2 to 1.4: an LDS instruction that goes to GDS reads M0 (the GDS size) and needs
# 1 wait state after a scalar ALU instruction wrote it.
        s_mov_b32 m0, -1
        ds_add_u32 v0, v1 gds
# The same on LDS: no hazard.
        s_mov_b32 m0, -1
        ds_add_u32 v0, v1
# Instructions that always go to GDS, with or without the modifier.
        s_mov_b32 m0, 0
        ds_gws_init v1 gds
        s_mov_b32 m0, 0
        ds_ordered_count v2, v1 offset:4 gds
# One instruction between: enough.
        s_mov_b32 m0, -1
        s_nop 0
        ds_add_u32 v0, v1 gds
# Written by a vector ALU instruction: not this rule.
        v_readfirstlane_b32 m0, v3
        ds_add_u32 v0, v1 gds
# GCN 1.0 to 1.4: VCCZ or EXECZ read as data by a vector ALU instruction needs 5 wait
# states after a vector ALU instruction wrote VCC or EXEC.
        v_cmp_lt_f32 vcc, v1, v2
        s_nop 2
        v_add_f32 v3, vccz, v4
        v_cmpx_lt_f32 s[0:1], v1, v2
        v_mov_b32 v5, execz
# Written by a scalar instruction, or read by one: no hazard.
        s_mov_b64 vcc, 0
        v_mov_b32 v5, vccz
        v_cmp_lt_f32 vcc, v1, v2
        s_cbranch_vccz end
end:
        s_endpgm
