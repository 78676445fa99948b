# args: -g Tonga -b rawcode
# Nothing but data.
        .byte 1, 2, 3
