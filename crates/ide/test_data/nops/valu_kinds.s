# args: -g Fiji -b rawcode
# The lane select of `v_readlane_b32`/`v_writelane_b32` may be any scalar register, VCC
# and the trap temporaries too: 4 wait states after a vector ALU instruction wrote it.
        v_add_u32 v0, vcc, v1, v2
        v_readlane_b32 s4, v4, vcc_lo
        s_endpgm
        v_readfirstlane_b32 ttmp0, v0
        v_writelane_b32 v5, s4, ttmp0
        s_endpgm
# A v_interp is a vector ALU instruction: writing a store's data 1 wait state too soon.
        buffer_store_dwordx4 v[7:10], off, s[4:7], 0 offset:96
        v_interp_p1_f32 v7, v0, attr0.x
        s_endpgm
