# Float literals as the reference's cstrtofXCStyle reads them: a value past the
# largest finite number (or rounding up to it) is an error, an exponent marker needs
# digits, and inf and nan (any case, signed) are literals.
.half 1e10000
.half 65520
.half 65504, 65519
.float 1e40
.float 3.4028236e38
.float 3.4028234e38
.float 0x1p128
.double 1e309
.double 0x1p1024
.float 76.233e, 1
.float 1.5e
.float 1.5e+
.float 2e-, 3
.half inf, -inf, nan, -nan, +Inf, NaN
.float inf, -inf, nan, -nan, INF, -NaN
.double inf, -inf, nan, -nan
.float infinity
.float 1e-50, -0.0
# Octal escapes above 255 are errors.
.ascii "\400"
.ascii "\377\0"
.byte '\400'
.byte '\377'
