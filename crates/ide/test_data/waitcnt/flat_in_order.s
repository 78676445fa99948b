# args: -g GFX900 -b rawcode
# A FLAT instruction is taken to go to global memory, in order with the other vector
# memory instructions in `vmcnt`, as code for GCN 1.1 and 1.2 (which has no global_*
# instructions) relies on: `vmcnt(1)` after a buffer load and a FLAT one says the
# buffer load is done. (One that goes to LDS may count down sooner, which compilers
# that know the address space wait for with `vmcnt(0)`.)
        buffer_load_dword v1, v0, s[8:11], 0 offen
        flat_load_dword v4, v[2:3]
        s_waitcnt vmcnt(1)
        v_mov_b32 v5, v1
        s_waitcnt vmcnt(0) lgkmcnt(0)
        s_endpgm
