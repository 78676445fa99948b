.gpu Tonga
.rawcode
FACTOR = 3
        s_mov_b32 s2, 1 # s_mov$0
        s_mov_b32 s2, 1 # a comment $0
        /* s_$0 */
        .ascii "s_$0"
        .byte 'v$0'
        /* a comment */ s_mo$0
        s_mov_b32 s2, F$0 # after a comment
        .ascii "text", "un$0
