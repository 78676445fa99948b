# Operators, precedence, 64-bit arithmetic and section-relative values.
.rawcode
.quad 1 + 2 * 3, (1 + 2) * 3, 7 / 2, -7 / 2, -7 // 2, -7 % 2, -7 %% 2
.quad 1 << 63, -8 >> 1, -8 >>> 1, 1 << 64
.quad 6 & 3 + 1, 6 | 1 ^ 3, 5 ! 0, ~0, !0, !5
.quad 1 < 2, 2 <= 1, -1 <@ 1, -1 >@ 1, 3 == 3, 3 != 3, 3 <> 4
.quad 1 && 0, 0 || 2, 1 ? 10 : 20, 0 ? 10 : 1 ? 20 : 30
.quad 'A', 0b101, 017, 0x1F
.quad 1 / 0
.quad 99999999999999999999
# One warning per cause, however often the expression reads it.
.eqv twice_shifted, 6 << 65
.quad twice_shifted + twice_shifted
