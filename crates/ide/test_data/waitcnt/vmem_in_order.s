# args: -g GFX1010 -b rawcode
# Vector memory loads of one kind write their registers in the order they issued: a
# second load into a register an earlier one loads does not race it. An image sample
# and a buffer load may come back in either order, and so may scalar loads: these are
# reported.
        buffer_load_dword v1, v0, s[8:11], 0 offen
        global_load_dword v1, v[2:3], off
        image_sample v1, v[4:5], s[12:19], s[20:23] dmask:1 dim:2d
        s_load_dword s1, s[0:1], 0
        s_load_dword s1, s[0:1], 4
# `image_get_lod` takes a sampler: it is of the sampling kind.
        s_waitcnt vmcnt(0) lgkmcnt(0)
        image_get_lod v[6:7], v[4:5], s[12:19], s[20:23] dmask:3 dim:2d
        image_load v[6:7], v[4:5], s[12:19] dmask:3 dim:2d unorm
        s_endpgm
