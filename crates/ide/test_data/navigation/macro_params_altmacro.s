# args: -g Tonga -b rawcode
# With the alternate macro syntax a body may use a parameter by its bare name:
# rename refuses (references still find the `\name` uses).
.altmacro
.macro put value
        .int value, \value
.endm
#> \value 0 rename=v
