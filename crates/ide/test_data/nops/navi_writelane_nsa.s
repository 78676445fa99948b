# args: -g GFX1010 -b rawcode
# An image instruction in the NSA form (addresses in a list) just after
# `v_writelane_b32` needs 1 wait state, whatever its length.
        v_writelane_b32 v1, s0, 0
        image_sample v[1:4], [v5, v6, v7], s[8:15], s[16:19] dmask:0xf dim:2d_array
        v_writelane_b32 v1, s0, 0
        s_nop 0
        image_sample v[1:4], [v5, v6, v7], s[8:15], s[16:19] dmask:0xf dim:2d_array
# Not the NSA form: no hazard.
        v_writelane_b32 v1, s0, 0
        image_sample v[1:4], v[5:7], s[8:15], s[16:19] dmask:0xf dim:2d_array
        s_endpgm
