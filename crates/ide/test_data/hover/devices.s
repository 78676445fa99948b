# hover on device and architecture names
.gpu Ton$0ga
.gpu gfx8$002
.arch GCN$01.4
.ifarch V$0EGA
.endif
.ifngpu Baf$0fin
.endif
.gpu NoSu$0chGPU
