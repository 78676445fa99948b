#! format=amdcl2 gpu=Tonga
# The writers compute PGM_RSRC2's USER_SGPR field (bits 1-5) from the format's own
# settings: a different count written in `.pgmrsrc2` is lost, and code that reads its
# work-group id after the count it wrote reads another SGPR than the hardware fills.
# Warned; the same count, or none, is not.
.kernel lost
    .config
        .dims x
        .useargs
        .pgmrsrc2 0x90
.kernel same
    .config
        .dims x
        .useargs
        .usesetup
        .pgmrsrc2 0x90
.kernel none
    .config
        .dims x
        .pgmrsrc2 0x80
.text
lost:
        s_endpgm
same:
        s_endpgm
none:
        s_endpgm
