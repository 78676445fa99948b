.ifarch GC$0
.endif
.ifngpu Ton$0
.endif
