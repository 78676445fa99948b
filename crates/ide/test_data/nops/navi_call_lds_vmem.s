# args: -g GFX1010 -b rawcode
# A call jumps as a branch does: LDS before it and vector memory after it need
# `s_waitcnt_vscnt null, 0` between.
        ds_read_b32 v1, v0
        s_swappc_b64 s[30:31], s[4:5]
        buffer_store_dword v2, v3, s[8:11], 0 offen
        s_endpgm
