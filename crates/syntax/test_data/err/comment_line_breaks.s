.byte 1, /* c
*/ 2
.int "ab\\
cd"
