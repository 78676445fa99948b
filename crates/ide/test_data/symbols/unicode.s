# Größe des Puffers — 😀 ist egal
groesse = 4 # ä
.kernel k # 名前
k: s_endpgm # 😀😀
   /* ü */ after: s_nop 0
