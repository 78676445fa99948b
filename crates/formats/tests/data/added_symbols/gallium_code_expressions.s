# GalliumCompute: symbols assigned from positions in .text keep its section, as labels
# do (`after = first + 4`, `here = .`), also when it waits for a label defined later
# (`ahead = second + 4`); a difference of labels and a number are absolute.
.gallium
.gpu Tonga
.weak after, here, size, num, ahead
num = 5
.kernel first
    .config
        .dims x
.text
first:
    s_nop 0
after = first + 4
ahead = second + 4
here = .
    s_endpgm
second:
size = second - first
