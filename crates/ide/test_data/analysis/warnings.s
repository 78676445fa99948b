# args: -g Pitcairn -w
# -w silences warnings, as for gcnasm.
.rawcode
        .warning "you will not see this"
        s_endpgm
