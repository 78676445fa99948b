#! format=amd
# Section-relative values combine like the reference's: sections cancel out.
.kernel a
al: .ascii "aaabbcc"
ae:
.kernel b
bl: .ascii "aaa"
be:
x0 = ae - al
x1 = al * 7 - (ae - al) * al
x2 = (ae << 2) - al * 4
x3 = al + bl - bl
x4 = al & -1
x5 = al | 0
x6 = al == al
x7 = al ? 1 : 2
x8 = al + bl
x9 = al * bl
