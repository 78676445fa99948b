# `.ifc`/`.ifnc` compare raw text, split at the first comma: a `'` only switches the
# quote mode (no character literal), so quotes and apostrophes are plain text.
.ifc 'ab','ab'
.byte 1
.endif
.ifc it's,it's
.byte 2
.endif
.ifnc a'b,c
.byte 3
.endif
.ifc 'a b','a  b'
.byte 4
.else
.byte 5
.endif
.if 0
.elseifc "x,y
.byte 6
.endif
.ifnb 'q
.byte 7
.endif
