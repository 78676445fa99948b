# args: -g Tonga -b rawcode
# With errors in the source, a value not resolved is 0.
        s_mov$0_b32 s0, missing + 1
        v_bad_instruction$0 v1
        s_end$0pgm
