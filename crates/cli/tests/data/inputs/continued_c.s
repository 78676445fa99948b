.byte 3
