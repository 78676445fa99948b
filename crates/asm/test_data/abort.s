.rawcode
.byte 1
.abort
.byte 2
