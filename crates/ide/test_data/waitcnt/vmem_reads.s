# args: -g GFX900 -b rawcode
# A vector memory instruction reads its operands when it issues: one reading the
# address a load in flight is filling takes the old address (AMD's compiler reuses an
# address register so), not reported; one storing the data a load in flight fills
# stores the old value, reported (LLVM waits there too).
        global_load_dword v0, v[2:3], off
        global_load_dword v1, v[0:1], off
        s_waitcnt vmcnt(0)
        global_load_dword v4, v[2:3], off
        global_store_dword v[6:7], v4, off
        buffer_load_dword v5, v0, s[8:11], 0 offen
        buffer_atomic_add v5, v0, s[8:11], 0 offen
        s_waitcnt vmcnt(0)
# An atomic that returns the old value (`glc`) reads its data before it writes it back;
# storing the value it returns before it returns stores the data it was given.
        buffer_load_dword v5, v0, s[8:11], 0 offen
        buffer_atomic_add v5, v0, s[8:11], 0 offen glc
        s_waitcnt vmcnt(0)
        buffer_atomic_add v5, v0, s[8:11], 0 offen glc
        global_store_dword v[6:7], v5, off
        s_waitcnt vmcnt(0)
# A load over its own address: the next access reading that address takes the old one,
# but storing the loaded value is reported.
        global_load_dword v2, v[2:3], off
        global_load_dword v4, v[2:3], off offset:4
        global_store_dword v[6:7], v2, off
        s_waitcnt vmcnt(0)
# FLAT may go to global memory or to LDS: `vmcnt` makes its registers safe (AMD's
# compiler relies on it for global memory), `lgkmcnt(0)` alone does not.
        flat_load_dword v8, v[2:3]
        s_waitcnt lgkmcnt(0)
        v_mov_b32 v9, v8
        s_endpgm
