# args: -g Tonga -b rawcode
# What a wait waits for, and what it leaves in flight.
        s_load_dword s4, s[0:1], 0
        buffer_load_dword v1, v0, s[8:11], 0 offen
        buffer_load_dword v2, v0, s[8:11], 0 offen offset:4
        s_waitcnt$0 vmcnt(1)
        s_wait$0cnt lgkmcnt(0)
        s_waitcnt$0 vmcnt(0)
# Nothing left to wait for.
        s_waitcnt$0 vmcnt(0)
# Along a loop: the load of the last iteration reaches the wait at its start.
loop:
        s_wait$0cnt vmcnt(0)
        buffer_load_dword v3, v0, s[8:11], 0 offen
        s_cbranch_scc0 loop
# In a macro, run twice: what it does on any run.
.macro wait_all
        s_waitcnt$0 vmcnt(0) lgkmcnt(0)
.endm
        buffer_load_dword v4, v0, s[8:11], 0 offen
        wait_all
        s_load_dword s5, s[0:1], 0
        wait_all
        s_endpgm
