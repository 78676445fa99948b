# A symbol of a section the binary leaves out (the read-write data is empty, so the
# inner ELF has no .hsadata_global_agent) is an error, as the reference refuses it.
.amdcl2
.gpu Bonaire
.64bit
.driver_version 234800
.global nowhere
.rwdata
nowhere:
.kernel one
    .config
        .dims x
    .text
        s_endpgm
