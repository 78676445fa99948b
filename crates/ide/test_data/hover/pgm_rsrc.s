# args: -g Tonga -b amdcl2
# A `.pgmrsrc*` value's hover lists the fields it sets, and for COMPUTE_PGM_RSRC2 says
# which the writer sets itself.
.kernel k
    .config
        .dims x
        .useargs
        .pgmrsrc1 $00x00ac035f
        .pgmrsrc2 $00x00000090
        .pgmrsrc2 $00
.text
        s_endpgm
