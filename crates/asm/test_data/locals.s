# Local labels: `1b` the last `1:`, `1f` the next.
.rawcode
1:  .byte 1b, 1f
1:  .byte 1b, 2f
2:  .byte 2b
    .byte 3b
