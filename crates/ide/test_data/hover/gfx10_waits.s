.gpu GFX1010
# The waits GCN 1.5 adds, and the one its hazards need.
        s_waitcnt_de$0cptr 0xffe3
        s_waitcnt_vs$0cnt null, 0
