.byte 2 \
