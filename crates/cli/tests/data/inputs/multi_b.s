.endif
.byte (2
