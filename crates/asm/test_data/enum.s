# `.enum` counts per scope; `>` sets the counter.
.enum A, B, C
.enum >1 ? 100 : 0, D, E
.scope inner
    .enum X, Y
.ends
.enum F
.enum >, Z
.enum A
.enum >5 G
