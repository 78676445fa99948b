# args: -g Tonga -b rawcode -I include
# Scopes: `.using`, nested scopes and paths; an .incbin path; local labels renamed as
# numbers; a name that the assembler never resolves.
.scope outer
    limit = 8
    .scope inner
        limit = 2
        both = limit + outer::limit
    .ends
.ends
.using outer
top = limit
deep = outer::inner::limit + ::outer::inner::both
2:      s_nop top
2:      s_branch 2b
        s_branch 2f
2:      s_endpgm
.incbin "table.bin"
# Queries: `#> TEXT [N] [rename=NEW]`: the cursor on the N-th (from 0) TEXT above.
#> limit 3 rename=cap
#> limit 1 rename=floor
#> outer::limit 0
#> ::limit 1 rename=low
#> ::both 0 rename=sum
#> ::outer::inner::both 0 rename=sum
#> 2b 0 rename=12
#> 2: 2 rename=x
#> table.bin 0
#> outer 1 rename=o
