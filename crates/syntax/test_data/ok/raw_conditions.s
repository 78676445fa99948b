# The text `.ifc` compares and `.ifb` tests is raw: no lexer errors there.
.ifc 'ab','ab'
.endif
.ifnc it's,it's
.elseifc "x,y
.elseifnb 'q
.endif
.ifb '
.endif
