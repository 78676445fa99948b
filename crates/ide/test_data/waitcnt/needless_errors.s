# args: -g Pitcairn -b rawcode
# While the source has errors, a wait is not called needless: the line that did not
# assemble (FLAT is not on GCN 1.0) may be a memory operation.
        flat_load_dword v2, v[0:1]
        s_waitcnt lgkmcnt(0) & vmcnt(0)
        s_endpgm
