# args: -g Tonga -b gallium
# On a register operand: what the kernel's setup put there before its first instruction.
.kernel k
    .config
        .dims xy
        .tgsize
.text
k:
        s_load_dwordx2 s[6:7], s$0[0:1], 0
        s_mov_b32 s8, s$04
        s_mov_b32 s9, s$06
        v_mov_b32 v$01, 0
        v_mov_b32 v3, v$02
        s_endpgm
