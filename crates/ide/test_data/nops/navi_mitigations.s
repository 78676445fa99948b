# args: -g GFX1010 -b rawcode
# What a `s_waitcnt_decptr` mitigates is in its fields, not its whole value: VM_VSRC
# (bits 2 to 4) at 0 ends the vector memory read before an SALU write, SA_SDST (bit 0)
# at 0 the read of EXEC before a VALU write of it.
        buffer_load_dword v2, v0, s[8:11], s4 offen
        s_waitcnt_decptr 0xffe2
        s_mov_b32 s4, 0
        buffer_load_dword v2, v0, s[8:11], s4 offen
        s_waitcnt_decptr 0xfff3
        s_mov_b32 s4, 0
        s_mov_b32 s7, exec_lo
        s_waitcnt_decptr 0
        v_cmpx_lt_f32 v1, v2
        s_mov_b32 s7, exec_lo
        s_waitcnt_decptr 0xffff
        v_cmpx_lt_f32 v1, v2
        s_endpgm
