# `.eqv` expansions that double at each level are refused, not expanded.
.rawcode
.eqv e0, 1
.eqv e1, e0 + e0
.eqv e2, e1 + e1
.eqv e3, e2 + e2
.eqv e4, e3 + e3
.eqv e5, e4 + e4
.eqv e6, e5 + e5
.eqv e7, e6 + e6
.eqv e8, e7 + e7
.eqv e9, e8 + e8
.eqv e10, e9 + e9
.eqv e11, e10 + e10
.eqv e12, e11 + e11
.eqv e13, e12 + e12
.eqv e14, e13 + e13
.eqv e15, e14 + e14
.eqv e16, e15 + e15
.eqv e17, e16 + e16
.eqv e18, e17 + e17
.eqv e19, e18 + e18
.eqv e20, e19 + e19
.eqv e21, e20 + e20
.eqv e22, e21 + e21
.eqv e23, e22 + e22
.eqv e24, e23 + e23
.eqv e25, e24 + e24
.int e2
.int e25
.int e3
