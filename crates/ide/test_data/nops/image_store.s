# args: -g Tonga -b rawcode
# An image store of more than 8 bytes with a 128-bit resource (`r128`) reads its data
# after the next instruction: a VALU write of that data needs 1 wait state (AMD's ISA
# manuals; with a 256-bit resource it needs none, as LLVM takes every image store).
        image_store v[1:4], v[5:8], s[8:11] dmask:15 unorm r128
        v_mov_b32 v2, 0
# A 256-bit resource: no hazard.
        image_store v[1:4], v[5:8], s[8:15] dmask:15 unorm
        v_mov_b32 v2, 0
# 8 bytes: no hazard.
        image_store v[1:2], v[5:8], s[8:11] dmask:3 unorm r128
        v_mov_b32 v2, 0
# Given by one instruction between.
        image_store v[1:4], v[5:8], s[8:11] dmask:15 unorm r128
        s_nop 0
        v_mov_b32 v2, 0
        s_endpgm
