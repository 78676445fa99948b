# AMD OpenCL 1.2, 32-bit, with -S: absolute symbols and those of the main extra
# sections go to the main ELF (after its own symbols, names after its own in .strtab),
# those of a kernel's .text, .data and extra sections to that kernel's inner ELF. The
# global data has no ELF section: its labels are left out, as are symbols neither
# global nor weak, and `.L` names are not special.
.amd
.gpu Pitcairn
.globaldata
gdata:
    .int 1, 2
.global gdata, answer, wk, code1, after, data1, near_data, near_code, note, inner_note
.global .Lexported, made_local
.weak wk
.local made_local
answer = 42
wk = -1
.size answer, 4
.section .notes
    .byte 0
note:
    .byte 1, 2, 3
.kernel first
    .config
        .dims x
    .text
        s_mov_b32 s0, 1
code1:
        s_nop 0
.Lloop:
        s_branch .Lloop
after:
        s_endpgm
    .size code1, 8
    .data
        .int 0
data1:
        .int 5
    near_data = data1 + 4
    near_code = code1 + 4
made_local:
    .section .kextra
        .short 0
inner_note:
        .short 7
.kernel second
    .config
        .dims xy
    .text
.Lexported:
        s_endpgm
