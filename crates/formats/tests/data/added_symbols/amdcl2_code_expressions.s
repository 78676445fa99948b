# AMD OpenCL 2.0, new layout: symbols assigned from positions in the code keep the
# code's section, as labels do (the reference's code sections are addressable but their
# positions are not absolute): `after = kf1 + 4` and `here = .` are in .hsatext; a
# difference of two labels and a number are absolute.
.amdcl2
.gpu Bonaire
.64bit
.driver_version 234800
.global kf1, after, here, size, num
num = 12
.kernel add
    .config
        .dims x
    .text
        s_nop 0
kf1:    s_nop 0
after = kf1 + 4
here = .
        s_endpgm
kf2:
size = kf2 - kf1
