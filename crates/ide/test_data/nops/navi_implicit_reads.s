# args: -g GFX1010 -b rawcode
# GCN 1.5: a scalar write of a register a memory instruction read, implicitly too, as
# LLVM's hazard recognizer has it: every vector memory, FLAT and LDS instruction reads
# EXEC, and an LDS instruction that goes to GDS, adds the lane's id (`*_addtid_b32`)
# or appends (`ds_append`, `ds_consume`) reads M0.
        global_load_dword v2, v[0:1], off
        s_mov_b32 exec_lo, -1
        s_endpgm
        ds_write_b32 v0, v1
        s_mov_b64 exec, -1
        s_endpgm
        ds_read_addtid_b32 v0
        s_mov_b32 m0, 0
        s_endpgm
        ds_gws_barrier v0 gds
        s_mov_b32 m0, 0
        s_endpgm
        ds_append v0
        s_mov_b32 m0, 0
        s_endpgm
# An LDS read that does not read M0: nothing to report.
        ds_read_b32 v0, v1
        s_mov_b32 m0, 0
        s_endpgm
# A v_interp is a vector ALU instruction: it ends the hazard.
        buffer_load_dword v1, v0, s[0:3], s4 offen
        v_interp_p1_f32 v2, v0, attr0.x
        s_mov_b32 s4, 0
        s_endpgm
