# A source in Latin-1, as CLRX reads it: café crème
.ascii "café", "ÿ"
.byte 'à'
.print "déjà vu"
.warning "prêt"
# a lone continuation byte: €
