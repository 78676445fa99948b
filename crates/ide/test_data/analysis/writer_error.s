# args: -g Tonga -b amd
# The binary writer's own refusals are diagnostics too.
.kernel k
    .config
        .sgprsnum 200
    .text
        s_endpgm
