# args: -g GFX900 -b rawcode
# LDS instructions return in order among themselves, and GDS ones among themselves,
# but one of each may come back in either order (LLVM and Mesa's ACO wait for 0):
# `lgkmcnt(1)` after an LDS read and a GDS one says neither is done.
        s_mov_b32 m0, -1
        ds_read_b32 v1, v0
        ds_read_b32 v2, v0 gds
        s_waitcnt lgkmcnt(1)
        v_mov_b32 v3, v1
        s_waitcnt lgkmcnt(0)
# Two LDS reads: `lgkmcnt(1)` says the first is done.
        ds_read_b32 v1, v0
        ds_read_b32 v2, v0 offset:4
        s_waitcnt lgkmcnt(1)
        v_mov_b32 v3, v1
        s_waitcnt lgkmcnt(0)
# Two GDS reads likewise.
        ds_read_b32 v1, v0 gds
        ds_read_b32 v2, v0 offset:4 gds
        s_waitcnt lgkmcnt(1)
        v_mov_b32 v3, v1
        s_waitcnt lgkmcnt(0)
        s_endpgm
