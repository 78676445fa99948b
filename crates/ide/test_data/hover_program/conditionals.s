# args: -g Tonga -b rawcode
# On a conditional's header: what the assembler decided for its branch.
.ifarch$0 GCN1.4
        v_nop
.elseifarch$0 GCN1.2
        s_nop 0
.else$0
        s_nop 1
.endif
        s_endpgm
