#! max-output-size=64
# Output past the size limit is refused.
.rawcode
.fill 60, 1, 1
.skip 8
.fill 1000000000000, 8, 0
.byte 2
