# ünïcödé 😀 comment
/* 😀 */ .int (1+2*
