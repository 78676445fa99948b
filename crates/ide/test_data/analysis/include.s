# args: -g Tonga -b rawcode -I include
# A macro from an included file: known to the source; an error in its body is shown
# on the line that called it, with the chain as related places.
.include "helpers.s"
        bump v3
        broken v4
        s_endpgm
