.byte 1 # a comment continued at the end of the file \
