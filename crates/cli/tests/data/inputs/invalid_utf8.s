s_nop 0
# Ã© then a lone continuation byte: €
