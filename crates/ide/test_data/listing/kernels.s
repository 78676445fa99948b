# args: -g Tonga -b amdcl2
# The listing of an editor's source: included files named from its folder, a macro's
# line once per run, a label resolved at the end.
.include "inc/zero.s"
.kernel first
    .config
        .dims x
    .text
        zero v1
        zero v2
        s_branch done
        v_mov_b32 v3, 0x12345678
done:   s_endpgm
