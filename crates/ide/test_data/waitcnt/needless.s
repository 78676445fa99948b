# args: -g Tonga -b rawcode
# A wait that never stops the wave is shown as unnecessary, with a fix that removes it.
        s_waitcnt lgkmcnt(0)
        buffer_load_dword v1, v0, s[8:11], 0 offen
        s_waitcnt vmcnt(0)
        v_mov_b32 v2, v1
        s_waitcnt vmcnt(0)
# One load in flight: vmcnt(1) never waits; vmcnt(0) does.
        buffer_load_dword v1, v0, s[8:11], 0 offen
        s_waitcnt vmcnt(1)
        s_waitcnt vmcnt(0) # and a comment: no fix, the line holds more
        v_mov_b32 v2, v1
# Scalar loads return in any order: lgkmcnt(1) waits for one of two.
        s_load_dword s4, s[0:1], 0
        s_load_dword s5, s[0:1], 4
        s_waitcnt lgkmcnt(1)
        s_waitcnt lgkmcnt(0)
# A label before it on its line: no fix (the line holds more).
done_loads: s_waitcnt lgkmcnt(0)
# In a macro run twice, needed on one run: not shown; needless on both: shown.
.macro wait_vm
        s_waitcnt vmcnt(0)
.endm
.macro wait_exp
        s_waitcnt expcnt(0)
.endm
        wait_vm
        wait_exp
        buffer_load_dword v3, v0, s[8:11], 0 offen
        wait_vm
        wait_exp
# Around a loop, the load of the last iteration is in flight at its start.
loop:
        s_waitcnt vmcnt(0)
        buffer_load_dword v3, v0, s[8:11], 0 offen
        s_cbranch_scc0 loop
        s_waitcnt vmcnt(0)
# A FLAT load counts in vmcnt and lgkmcnt until both are done (it may go to LDS):
# after vmcnt(0) its registers are taken as safe, yet lgkmcnt(0) may still wait.
        flat_load_dword v1, v[2:3]
        s_waitcnt vmcnt(0)
        v_mov_b32 v4, v1
        s_waitcnt lgkmcnt(0)
        s_waitcnt lgkmcnt(0)
# An export reading no register still counts in expcnt.
        exp mrt0, off, off, off, off done
        s_waitcnt expcnt(0)
        s_endpgm
