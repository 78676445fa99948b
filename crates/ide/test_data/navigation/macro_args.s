# args: -g Tonga -b rawcode
# Names passed to macros as arguments are found where the call writes them, also
# through a macro that passes its parameter on, and in `.irp` values.
.macro jump target, count
        s_nop \count
        s_branch \target
.endm
.macro twice where
        jump \where, limit
        jump \where, 1
.endm
limit = 3
start:  s_nop 0
        jump start, limit
        twice start
.irp name, limit, start
        s_nop \name
.endr
done:   s_endpgm
# Queries: `#> TEXT [N] [rename=NEW]`: the cursor on the N-th (from 0) TEXT above.
#> start 1 rename=begin
#> start 2
#> limit 2 rename=cap
#> limit 3
#> start 3
