# args: -g GFX1010 -b rawcode
# LDS and vector memory across a branch, as LLVM's hazard recognizer has it: looking
# back from one for the branch, the first LDS or vector memory instruction of either
# kind ends the search (that one is the nearer of the two across the branch), as
# `s_waitcnt_vscnt null, 0` does. A vector load after the branch, before the LDS read:
        buffer_load_dword v1, off, s[0:3], 0
        s_cbranch_execz end1
        buffer_load_dword v0, off, s[0:3], 0 offset:4
        s_waitcnt vmcnt(0)
        ds_read_b32 v1, v0
end1:
        s_endpgm
# The other way round: an LDS read after the branch, before the vector store.
        ds_add_u32 v0, v1
        s_cbranch_execz skip2
        v_mov_b32 v1, 1
skip2:
        ds_read_b32 v2, v0
        s_waitcnt lgkmcnt(0)
        global_store_dword v0, v2, s[0:1]
        s_endpgm
# Nothing of either kind after the branch: reported.
        ds_read_b32 v2, v0
        s_cbranch_execz skip3
skip3:
        s_waitcnt lgkmcnt(0)
        global_store_dword v0, v2, s[0:1]
        s_endpgm
