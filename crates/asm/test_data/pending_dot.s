# `.` in an instruction's operand is the instruction's start, also when the operand
# waits for a symbol defined later.
start:
        s_mov_b32 s1, later - .
        s_add_u32 s2, s3, . - start + later
        s_branch later
later:
        s_endpgm
