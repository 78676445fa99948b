# args: -g Tonga -b rawcode
# Scope names: `.scope` (opened twice), `.using`, `.unusing` and the scope parts of
# paths are one name each, found, listed and renamed together.
.scope outer
    .scope inner
        deep = 1
    .ends
    top = inner::deep
.ends
.scope outer
    more = 2
.ends
.using outer::inner
value = outer::inner::deep + ::outer::top + deep
.unusing outer::inner
# Queries: `#> TEXT [N] [rename=NEW]`: the cursor on the N-th (from 0) TEXT above.
#> outer 1 rename=big
#> outer 3
#> inner 2 rename=small
#> inner 0
#> deep 3
#> outer 4
