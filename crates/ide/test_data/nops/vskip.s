# args: -g Tonga -b rawcode
# VSKIP (skip vector instructions) in MODE: `s_getreg_b32` of MODE needs 2 wait states
# after `s_setvskip`, and a vector instruction 2 after `s_setreg*` writes MODE's VSKIP
# bit (28) (AMD's ISA manuals).
        s_setvskip s0, s1
        s_getreg_b32 s2, hwreg(mode, 0, 32)
        s_setreg_imm32_b32 hwreg(mode, 28, 1), 0
        v_mov_b32 v1, 0
        s_setreg_b32 hwreg(mode, 20, 12), s3
        s_nop 0
        buffer_load_dword v2, v0, s[8:11], 0 offen
        s_waitcnt vmcnt(0)
# Other MODE bits, or two wait states between: nothing to report.
        s_setreg_b32 hwreg(mode, 0, 4), s3
        v_mov_b32 v1, 0
        s_setvskip s0, s1
        s_nop 1
        s_getreg_b32 s2, hwreg(mode, 0, 32)
        s_setreg_imm32_b32 hwreg(mode, 28, 1), 0
        s_nop 1
        v_mov_b32 v1, 0
        s_endpgm
