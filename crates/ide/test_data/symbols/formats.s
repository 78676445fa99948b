# `.format` switches the format too; `.section` leaves a kernel's scope in shared-code formats.
.format gallium
.kernel one
    .args
    .arg scalar, 4
.section .text
one: s_endpgm
.format amd
.kernel two
.text
two: s_endpgm
