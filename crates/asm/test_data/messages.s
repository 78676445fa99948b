# Messages and the end of assembly.
.rawcode
.print "hello"
.warning "careful"
.warning
.error "broken"
.error
.err
.fail 499
.fail 500
.title "ignored"
.file "x.c"
.end
.byte 1                  # not assembled
