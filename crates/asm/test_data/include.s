#! include=inc
# .include searches the current directory, then -I directories, then beside the file;
# `\` separators work. .incbin takes an offset and a count.
.rawcode
.include "inc/one.s"
.include "two.s"
.include "inc\\one.s"
.incbin "inc/bytes.bin"
.incbin "bytes.bin", 2, 3
.incbin "bytes.bin", 10
.incbin "bytes.bin", 0, 0
.include "missing.s"
.incbin "missing.bin"
.include "bad.s"
