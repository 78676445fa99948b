#!/usr/bin/env python3
"""Generate llvm-mc fixtures: every row of data/instructions.txt on every generation
that has it, written in CLRX syntax, encoded by llvm-mc-14 (a second, independent
oracle; clrxasm is the first, through ../shared/conformance).

For each row and generation it writes one to four representative statements (plain
registers suited to the operand kinds; where cheap a constant, a literal, a VOP3 form
with modifiers, an offset), runs `llvm-mc-14 -show-encoding` once per generation and
keeps the statements llvm-mc accepts:

    crates/isa/test_data/llvm/<set>.txt      SRC ;; HEXWORDS [;; llvm: LLVMSRC]

`LLVMSRC` is given where llvm-mc needs other spelling than CLRX for the same machine
code (branch targets, hwreg/sendmsg names, MTBUF formats). Rows llvm-mc refuses
(other names, syntax it lacks on a generation, instructions LLVM does not know)
are left out and counted in each file's header. tests/llvm_fixtures.rs encodes the
fixtures with gcn-isa (no llvm-mc at test time); known, explained disagreements go
in test_data/llvm/allow.txt.

    python3 crates/isa/tools/gen_llvm_fixtures.py [--llvm-mc llvm-mc-14] [--rejected]

--rejected prints the statements llvm-mc refused, with its message.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "instructions.txt")
OUT = os.path.join(HERE, "..", "test_data", "llvm")

GENS = ["1.0", "1.1", "1.2", "1.4", "1.4.1", "1.5", "1.5.1"]
# Fixture sets: (generation, set name, our -g device, llvm-mc -mcpu, extra llvm-mc
# args, wave32). The corpus's GCN 1.5 sets are wave64 unless marked wave32; the wave32
# set holds only the rows with lane-mask operands (VCC, VOPC/VOP3B SDST).
SETS = [
    ("1.0", "gcn1.0", "Tahiti", "tahiti", [], False),
    ("1.1", "gcn1.1", "Bonaire", "bonaire", [], False),
    ("1.2", "gcn1.2", "Tonga", "tonga", [], False),
    ("1.4", "gcn1.4", "GFX900", "gfx900", [], False),
    ("1.4.1", "gcn1.4.1", "GFX906", "gfx906", [], False),
    ("1.5", "gcn1.5", "GFX1010", "gfx1010", ["-mattr=+wavefrontsize64"], False),
    ("1.5.1", "gcn1.5.1", "GFX1011", "gfx1011", ["-mattr=+wavefrontsize64"], False),
    ("1.5", "gcn1.5-wave32", "GFX1010", "gfx1010", ["-mattr=+wavefrontsize32"], True),
]


def gi(gen):
    return GENS.index(gen)


# CLRX mnemonics llvm-mc spells otherwise (same opcode); applied to llvm-mc's copy only.
LLVM_NAMES = [
    (("1.0", "1.1"), r"^v_(add|sub|subrev)_u32(_e64)?$", r"v_\1_i32\2"),
    (("1.2",), r"^v_(add|sub|subrev)_i32(_e64)?$", r"v_\1_u32\2"),
    (("1.5", "1.5.1"), r"^v_addc_u32(_e64)?$", r"v_add_co_ci_u32\1"),
    (("1.5", "1.5.1"), r"^v_subb_u32(_e64)?$", r"v_sub_co_ci_u32\1"),
    (("1.5", "1.5.1"), r"^v_subbrev_u32(_e64)?$", r"v_subrev_co_ci_u32\1"),
    (GENS, r"^(v_cmpx?)_tru_([iu]\d+)(_e64)?$", r"\1_t_\2\3"),
    (GENS, r"^(v_cmpx?)_t_(f\d+)(_e64)?$", r"\1_tru_\2\3"),
    (GENS, r"^(v_cmpsx?)_t_(f\d+)(_e64)?$", r"\1_tru_\2\3"),
    (GENS, r"^(v_cmpx?)_lg_([iu]\d+)(_e64)?$", r"\1_ne_\2\3"),
    (GENS, r"^s_cmp_ne_u64$", "s_cmp_lg_u64"),
    (GENS, r"^v_(m?qsad)_u8$", r"v_\1_pk_u16_u8"),
    (("1.5", "1.5.1"), r"^s_waitcnt_decptr$", "s_waitcnt_depctr"),
    (("1.4.1",), r"^v_mad_mix(_f32|lo_f16|hi_f16)$", r"v_fma_mix\1"),
]


def llvm_name(gen, text):
    m, sep, rest = text.partition(" ")
    for gens, pat, rep in LLVM_NAMES:
        if gen in gens and re.match(pat, m):
            return re.sub(pat, rep, m) + sep + rest
    return text


# ---------------------------------------------------------------------------
# The table


class Operand:
    def __init__(self, spec):
        parts = spec.split(":")
        self.kind = parts[0]
        self.min = self.max = 1
        self.ty = "int"
        for p in parts[1:]:
            if re.fullmatch(r"\d+(-\d+)?", p):
                a, _, b = p.partition("-")
                self.min, self.max = int(a), int(b or a)
            else:
                self.ty = p

    @property
    def float(self):
        return self.ty in ("f16", "f32", "f64")


class Row:
    def __init__(self, line):
        f = line.split()
        self.mnemonic, self.enc, ops, flags = f[0], f[1], f[2], f[3]
        self.ops = [] if ops == "-" else [Operand(o) for o in ops.split(",")]
        self.flags = set() if flags == "-" else set(flags.split(","))
        self.opcodes = {}  # gen -> (opcode, vop3 opcode or None)
        for tok in f[4:]:
            g, v = tok.split("=")
            a, _, b = g.partition("-")
            op, _, v3 = v.partition("/")
            for gen in GENS[gi(a):gi(b or a) + 1]:
                self.opcodes[gen] = (int(op), int(v3) if v3 not in ("", "-") else None)

    def kinds(self):
        return [o.kind for o in self.ops]


def load_rows():
    rows = []
    for line in open(DATA):
        if line.strip() and not line.startswith("#"):
            rows.append(Row(line))
    return rows


# ---------------------------------------------------------------------------
# Registers and constants


def sreg(base, n):
    if n == 1:
        return f"s{base}"
    # 64-bit pairs even, wider tuples 4-aligned (hardware and llvm-mc want that).
    align = 2 if n == 2 else 4
    base = (base + align - 1) // align * align
    return f"s[{base}:{base + n - 1}]"


def vreg(base, n):
    return f"v{base}" if n == 1 else f"v[{base}:{base + n - 1}]"


def const(op):
    """An inline constant suited to the operand's type."""
    return "1.0" if op.float else "-1"


class Stmt:
    """A statement in CLRX syntax, with llvm-mc's spelling where it differs."""

    def __init__(self, src, llvm=None):
        self.src = src
        self.llvm = llvm or src


# ---------------------------------------------------------------------------
# Statements per encoding
#
# Register bases: destinations from 1 (v1, s10 for scalar), sources from 20, 40, 60 so
# that a field mix-up shows in the words.

SSRC_BASES = [20, 40, 60]
VSRC_BASES = [20, 40, 60, 80]
HWREG = ("hwreg(mode, 0, 4)", "hwreg(HW_REG_MODE, 0, 4)")
HWREG2 = ("hwreg(trapsts, 3, 10)", "hwreg(HW_REG_TRAPSTS, 3, 10)")


def scalar_alu(row, gen):
    """SOP1/SOP2/SOPC/SOPK/SOPP."""
    m = row.mnemonic
    kinds = row.kinds()
    out = []

    def build(mode):
        clrx, llvm = [], []
        ssrc_i = 0
        nssrc = kinds.count("ssrc")
        for op in row.ops:
            k = op.kind
            if k == "sdst":
                r = sreg(10, op.max)
                clrx.append(r); llvm.append(r)
            elif k == "ssrc":
                r = sreg(SSRC_BASES[ssrc_i], op.max)
                last = ssrc_i == nssrc - 1
                if mode == "const" and last:
                    r = const(op)
                elif mode == "const" and ssrc_i == 0 and nssrc > 1:
                    r = "exec" if op.max == 2 else "vcc_lo"
                elif mode == "literal" and last:
                    r = "0x12345678"
                ssrc_i += 1
                clrx.append(r); llvm.append(r)
            elif k == "simm16":
                v = "-5" if mode == "const" else "0x1234"
                if m == "s_nop" or m == "s_setprio" or m.startswith("s_sleep"):
                    v = "3" if mode != "const" else "0x32b"
                clrx.append(v); llvm.append(v)
            elif k == "imm16":
                v = "0xd3b9" if mode != "const" else "7"
                clrx.append(v); llvm.append(v)
            elif k == "imm32":
                clrx.append("0x12345678"); llvm.append("0x12345678")
            elif k == "reladdr":
                # CLRX takes the target address (the statement is at 0); llvm-mc the
                # word offset from the next instruction.
                tgt = 16 if mode != "const" else -8
                clrx.append(str(tgt)); llvm.append(str((tgt - 4) // 4))
            elif k == "hwreg":
                h = HWREG2 if mode == "const" else HWREG
                clrx.append(h[0]); llvm.append(h[1])
            elif k == "sendmsg":
                if mode == "const":
                    clrx.append("sendmsg(gs, emit, 1)"); llvm.append("sendmsg(MSG_GS, GS_OP_EMIT, 1)")
                else:
                    clrx.append("sendmsg(interrupt)"); llvm.append("sendmsg(MSG_INTERRUPT)")
            elif k == "waitcnt":
                w = "vmcnt(1) & expcnt(2) & lgkmcnt(3)" if mode != "const" else "lgkmcnt(0)"
                clrx.append(w); llvm.append(w)
            elif k == "gpridx":
                w = "gpr_idx(SRC0,DST)" if mode != "const" else "gpr_idx(SRC1,SRC2)"
                clrx.append(w); llvm.append(w)
            else:
                raise ValueError(f"{m}: scalar operand {k}")
        return Stmt(f"{m} {', '.join(clrx)}".strip(), f"{m} {', '.join(llvm)}".strip())

    out.append(build("plain"))
    if any(k in kinds for k in ("ssrc", "simm16", "imm16", "reladdr", "hwreg", "sendmsg", "waitcnt", "gpridx")):
        out.append(build("const"))
    ss = [o for o in row.ops if o.kind == "ssrc"]
    if ss and ss[-1].max == 1:
        out.append(build("literal"))
    return out


def scalar_mem(row, gen):
    """SMRD (GCN 1.0/1.1) and SMEM."""
    m = row.mnemonic
    kinds = row.kinds()
    if not row.ops:
        return [Stmt(m)]
    out = []
    modes = ["imm", "sgpr", "glc"]
    if gen == "1.2" and "store" in row.flags:
        modes.append("m0")  # clrxasm takes only M0 as a GCN 1.2 store's SGPR offset
    for mode in modes:
        parts = []
        for op in row.ops:
            k = op.kind
            if k in ("sdst", "sdata"):
                parts.append(sreg(10, op.max))
            elif k == "sdataimm":
                parts.append("3")
            elif k == "sbase":
                parts.append(sreg(20, op.max))
            elif k == "smoff":
                parts.append({"imm": "0x10", "glc": "0x10", "sgpr": "s40", "m0": "m0"}[mode])
            else:
                raise ValueError(f"{m}: smem operand {k}")
        src = f"{m} {', '.join(parts)}"
        if mode == "glc":
            if row.enc != "smem" or "smoff" not in kinds:
                continue
            src += " glc"
        out.append(Stmt(src))
    return out


def vop_operands(row, gen, form, mode, wave32=False):
    """Operand texts for VOP1/VOP2/VOPC/VOP3/VOP3P rows.

    form: 'e32' or 'e64' (VOP3 encoding, VOP3-only rows too); mode: 'plain', 'const'
    (SGPR/constant sources), 'mods' (neg/abs on float sources), 'literal'."""
    parts = []
    src_i = 0
    for op in row.ops:
        k = op.kind
        n = op.max if k != "vsrc" else op.min
        if k == "vdst":
            parts.append(vreg(1, n))
        elif k == "sdst":
            parts.append(sreg(10, n))
        elif k == "vccdst":
            vcc = "vcc_lo" if wave32 else "vcc"
            parts.append(vcc if form == "e32" else sreg(10, 1 if wave32 else 2))
        elif k == "vccsrc":
            vcc = "vcc_lo" if wave32 else "vcc"
            parts.append(vcc if form == "e32" else sreg(12, 1 if wave32 else 2))
        elif k in ("src", "vsrc", "ssrc"):
            i = src_i
            src_i += 1
            if k == "ssrc":
                r = sreg(SSRC_BASES[i], n)
                if mode == "const" and i > 0:
                    r = "5"
                parts.append(r)
                continue
            r = vreg(VSRC_BASES[i], n)
            if form == "e32" and k == "vsrc":
                parts.append(r)
                continue
            if mode == "const":
                if i == 0 and "vccsrc" in row.kinds():
                    pass  # the lane mask already reads SGPRs: keep to one constant-bus read
                elif i == 0:
                    r = sreg(SSRC_BASES[0], n)
                elif i == 1 or form == "e32":
                    r = const(op)
            elif mode == "literal" and i == 0:
                r = "0x12345678" if op.ty == "int" or op.ty == "f32" else r
            elif mode == "mods" and op.float and "vop3b" in row.flags:
                r = f"-{r}"  # VOP3B has no ABS bits
            elif mode == "mods" and op.float:
                r = {0: f"-{r}", 1: f"|{r}|", 2: f"-|{r}|"}.get(i, r)
            parts.append(r)
        elif k == "kimm":
            parts.append("0x1234" if op.ty == "f16" else "0x12345")
        elif k == "attr":
            parts.append("attr3.y")
        elif k == "interp":
            parts.append("p20")
        else:
            raise ValueError(f"{row.mnemonic}: vop operand {k}")
    return parts


def vector_alu(row, gen, wave32=False):
    m = row.mnemonic
    op3 = row.opcodes[gen][1]
    out = []
    srcs = [o for o in row.ops if o.kind in ("src", "vsrc", "ssrc")]
    has_float = any(o.float for o in srcs)
    dst = row.ops[0] if row.ops else None
    float_dst = dst is not None and dst.kind == "vdst" and dst.float
    gfx10 = gen.startswith("1.5")

    def ops(form, mode):
        return ", ".join(vop_operands(row, gen, form, mode, wave32))

    if row.enc in ("vop1", "vop2", "vopc"):
        out.append(Stmt(f"{m} {ops('e32', 'plain')}".rstrip()))
        if srcs and srcs[0].kind in ("src", "ssrc"):
            out.append(Stmt(f"{m} {ops('e32', 'const')}"))
            if srcs[0].max == 1 and srcs[0].ty in ("int", "f32") and "vccsrc" not in row.kinds():
                out.append(Stmt(f"{m} {ops('e32', 'literal')}"))
        if op3 is not None and "noe64" not in row.flags:
            mode = "mods" if has_float else "const"
            out.append(Stmt(f"{m}_e64 {ops('e64', mode)}".rstrip()))
            if float_dst and row.enc != "vopc":
                out.append(Stmt(f"{m}_e64 {ops('e64', 'plain')} clamp mul:2"))
            if gfx10 and srcs and srcs[0].max == 1 and srcs[0].ty in ("int", "f32"):
                out.append(Stmt(f"{m}_e64 {ops('e64', 'literal')}"))
        # SDWA and DPP (GCN 1.2 on): 32-bit operands, no constant K.
        if (gi(gen) >= gi("1.2") and srcs and srcs[0].kind == "src" and "kimm" not in row.kinds()
                and all(o.max == 1 for o in row.ops if o.kind in ("vdst", "src", "vsrc"))):
            plain = ops("e32", "plain")
            if row.enc == "vopc":
                sdwa = " src0_sel:BYTE_2 src1_sel:WORD_0"
            else:
                sdwa = " dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_2"
                if row.enc == "vop2":
                    sdwa += " src1_sel:WORD_0"
            out.append(Stmt(f"{m} {plain}{sdwa}"))
            if has_float:
                out.append(Stmt(f"{m} {ops('e32', 'mods')}{sdwa}"))
            elif srcs[0].ty == "int":
                sx = plain.replace("v20", "sext(v20)", 1)
                out.append(Stmt(f"{m} {sx}{sdwa}"))
            out.append(Stmt(f"{m} {plain} quad_perm:[2,1,0,3] row_mask:0xb bank_mask:0xe"))
            # llvm-mc spells DPP's BOUND_CTRL bit `bound_ctrl:0` (kept for old code).
            out.append(Stmt(f"{m} {plain} row_shl:1 bound_ctrl", f"{m} {plain} row_shl:1 bound_ctrl:0"))
            if gfx10:
                out.append(Stmt(f"{m} {plain} dpp8:[7,6,5,4,3,2,1,0]"))
    else:  # vop3, vop3p
        out.append(Stmt(f"{m} {ops('e64', 'plain')}"))
        if srcs and "interp" not in row.flags:  # VOP3 interpolation: registers only
            out.append(Stmt(f"{m} {ops('e64', 'const')}"))
        if has_float and row.enc == "vop3":
            out.append(Stmt(f"{m} {ops('e64', 'mods')}"))
        if float_dst and row.enc == "vop3" and "interp" not in row.flags and (
                "vop3b" not in row.flags or gi(gen) >= gi("1.2")):  # no VOP3B clamp before 1.2
            out.append(Stmt(f"{m} {ops('e64', 'plain')} clamp mul:2"))
        if (gi(gen) >= gi("1.4") and row.enc == "vop3" and dst is not None and dst.ty in ("f16", "b16")
                and "interp" not in row.flags):
            n = len(srcs) + 1
            out.append(Stmt(f"{m} {ops('e64', 'plain')} op_sel:[{','.join(['1'] + ['0'] * (n - 2) + ['1'])}]"))
        if gfx10 and srcs and srcs[0].max == 1 and srcs[0].ty in ("int", "f32") and "interp" not in row.flags:
            out.append(Stmt(f"{m} {ops('e64', 'literal')}"))
        if m.startswith("v_permlane"):
            # The lane selects are scalar (llvm-mc insists).
            out.append(Stmt(f"{m} v1, v20, s40, s60"))
            out.append(Stmt(f"{m} v1, v20, s40, 0x1234 op_sel:[1,0]"))
        if "_mix" in m:
            # clrxasm's default op_sel_hi for the mix instructions is [1,1,1], llvm-mc's 0.
            for hi in ("0,0,0", "1,1,1"):
                out.append(Stmt(f"{m} {ops('e64', 'plain')} op_sel_hi:[{hi}]"))
        if row.enc == "vop3p" and len(srcs) >= 2:
            n = len(srcs)
            sel = ",".join(["1"] + ["0"] * (n - 1))
            hi = ",".join(["0"] + ["1"] * (n - 1))
            out.append(Stmt(f"{m} {ops('e64', 'plain')} op_sel:[{sel}] op_sel_hi:[{hi}]"))
    return out


def vintrp(row, gen):
    m = row.mnemonic
    out = [Stmt(f"{m} {', '.join(vop_operands(row, gen, 'e32', 'plain'))}")]
    ops = vop_operands(row, gen, "e32", "plain")
    out.append(Stmt(f"{m} {', '.join(o.replace('attr3.y', 'attr31.w').replace('p20', 'p10') for o in ops)}"))
    return out


def ds(row, gen):
    m = row.mnemonic
    parts = []
    vi = 0
    for op in row.ops:
        k = op.kind
        if k == "vdst":
            parts.append(vreg(1, op.max))
        elif k == "addr":
            parts.append(vreg(20, 1))
        elif k == "vdata":
            parts.append(vreg([40, 60][vi], op.max))
            vi += 1
        else:
            raise ValueError(f"{m}: ds operand {k}")
    base = f"{m} {', '.join(parts)}".rstrip()
    gds = " gds" if "gds" in row.flags else ""
    out = [Stmt(base + gds)]
    if "offset2" in row.flags:
        out.append(Stmt(base + " offset0:3 offset1:250" + gds))
    elif "addr" in row.kinds() or not row.ops or row.kinds() in (["vdst"], ["vdata"]):
        out.append(Stmt(base + " offset:0xfedc" + gds))
        if not gds:
            out.append(Stmt(base + " offset:4 gds"))
    return out


BUF_FMT = {  # explicit MTBUF format: CLRX writes it among the modifiers; llvm-mc-14 takes
    # the GCN 1.5 one before SOFFSET, the older one right after it
    "old": ("format:[32,float]", "format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]"),
    "new": ("format:22", "format:22"),
}


def buffer(row, gen):
    m = row.mnemonic
    if not row.ops:
        return [Stmt(m)]
    kinds = row.kinds()
    if kinds == ["srsrc", "soffset"]:
        return [Stmt(f"{m} s[8:11], s20"), Stmt(f"{m} s[8:11], 1 offset:4")]
    out = []
    n = row.ops[0].max
    dm = re.search(r"format_d16_(x|xy|xyz|xyzw)$", m)
    if gen == "1.2" and dm:
        n = len(dm.group(1))  # GCN 1.2 D16 is unpacked: a register per component
    data = vreg(1, n)
    atomic = "atomic" in row.flags
    mt = row.enc == "mtbuf"
    fmt = BUF_FMT["new" if gen.startswith("1.5") else "old"]
    variants = [
        ("v20", "s20", " offen"),
        ("off", "1", " offset:4095 glc slc"),
        ("v[20:21]", "s20", " idxen offen offset:4"),
    ]
    if gen in ("1.0", "1.1"):
        variants.append(("v[20:21]", "s20", " addr64"))
    for vaddr, soff, mods in variants:
        if atomic and "glc" not in mods:
            mods = mods + " glc"
        out.append(Stmt(f"{m} {data}, {vaddr}, s[8:11], {soff}{mods}"))
    if mt:
        llvm = (f"{m} {data}, v20, s[8:11], {fmt[1]}, s20 offen" if gen.startswith("1.5")
                else f"{m} {data}, v20, s[8:11], s20 {fmt[1]} offen")
        out.append(Stmt(f"{m} {data}, v20, s[8:11], s20 offen {fmt[0]}", llvm))
    elif atomic:
        out.append(Stmt(f"{m} {data}, v20, s[8:11], s20 offen"))
    return out


# Address VGPRs of GCN 1.5 images with `dims` coordinates (dim:1d, dim:2d), by the
# suffixes of the mnemonic.
def mimg_addr(m, dims=1):
    if m.startswith("image_get_resinfo"):
        return 1
    words = m.split("_")[1:]
    n = dims
    if m.startswith("image_load_mip") or m.startswith("image_store_mip"):
        n += 1
    for w in words:
        if w in ("c", "o", "b", "l", "cl"):
            n += 1
        elif w in ("d", "cd"):
            n += 2 * dims
    return n


def mimg(row, gen):
    m = row.mnemonic
    gfx10 = gen.startswith("1.5")
    sample = "sample" in row.flags
    gather = "gather4" in row.flags
    cmpswap = "cmpswap" in row.flags
    if gfx10:
        vaddr = vreg(20, mimg_addr(m))
        dim = " dim:1d"
    else:
        vaddr = vreg(20, 4)
        dim = ""
    ssamp = ", s[16:19]" if sample else ""
    out = []
    for dmask, regs, mods in ((1, 1, " unorm"), (0xf, 4, " unorm glc slc")):
        if gather:
            regs = 4
            dmask = 1 if dmask == 1 else 4  # one component
        if cmpswap:
            dmask, regs = (3, 2) if dmask == 1 else (0xf, 4)
        if "atomic" in row.flags and not cmpswap and dmask == 0xf:
            dmask, regs = 3, 2
        if "atomic" in row.flags and "glc" not in mods:
            mods += " glc"
        d = vreg(1, regs)
        out.append(Stmt(f"{m} {d}, {vaddr}, s[8:15]{ssamp} dmask:{dmask:#x}{dim}{mods}"))
    d = vreg(1, 4 if gather else 2 if cmpswap else 1)
    dm = 3 if cmpswap else 1
    # llvm-mc takes MIMG modifiers in its order: dmask, dim, unorm, glc, ..., da.
    glc = " glc" if "atomic" in row.flags else ""
    if "load" not in row.flags or "atomic" in row.flags:
        glc = " unorm" + glc  # clrxasm wants unorm on image stores and atomics
    if gfx10:
        if not m.startswith("image_get_resinfo"):
            out.append(Stmt(f"{m} {d}, {vreg(20, mimg_addr(m, 2))}, s[8:15]{ssamp} dmask:{dm:#x} dim:2d{glc}"))
    else:
        out.append(Stmt(f"{m} {d}, {vaddr}, s[8:15]{ssamp} dmask:{dm:#x}{glc} da"))
    return out


def flat(row, gen):
    m = row.mnemonic
    seg = row.enc
    out = []
    ops = row.ops
    atomic = "atomic" in row.flags
    load = "load" in row.flags
    store = "store" in row.flags
    data = None
    for op in ops:
        if op.kind == "vdata":
            data = vreg(40, op.max)
    dst = vreg(1, ops[0].max) if ops[0].kind == "vdst" else None
    if seg == "flat":
        addrs = [("v[20:21]", "")]
        offs = " offset:2047" if gi(gen) >= gi("1.4") else ""
    elif seg == "global":
        addrs = [("v[20:21]", ", off"), ("v20", ", s[10:11]")]
        offs = " offset:-16"
    else:
        addrs = [("v20", ", off"), ("off", ", s10")]
        offs = " offset:-16"
    for i, (addr, saddr) in enumerate(addrs):
        extra = "" if i == 0 else offs + " glc slc"
        if load:
            out.append(Stmt(f"{m} {dst}, {addr}{saddr}{extra}"))
        elif store:
            out.append(Stmt(f"{m} {addr}, {data}{saddr}{extra}"))
        else:
            # llvm-mc wants the returning atomic's glc after the offset.
            ret = extra if extra else " glc"
            out.append(Stmt(f"{m} {dst}, {addr}, {data}{saddr}{ret}"))
            out.append(Stmt(f"{m} {addr}, {data}{saddr}{extra.replace(' glc', '')}"))
    if seg == "flat" and offs:
        if load:
            out.append(Stmt(f"{m} {dst}, v[20:21]{offs} glc slc"))
        elif store:
            out.append(Stmt(f"{m} v[20:21], {data}{offs} glc slc"))
    return out


def exp(row, gen):
    return [Stmt("exp mrt1, v1, v2, v3, v4"), Stmt("exp pos0, v1, off, v3, off done vm"),
            Stmt("exp param5, v1, v2, v3, v4 done")]


GENERATORS = {
    "sop1": scalar_alu, "sop2": scalar_alu, "sopc": scalar_alu, "sopk": scalar_alu, "sopp": scalar_alu,
    "smrd": scalar_mem, "smem": scalar_mem,
    "vop1": vector_alu, "vop2": vector_alu, "vopc": vector_alu, "vop3": vector_alu, "vop3p": vector_alu,
    "vintrp": vintrp, "ds": ds, "mubuf": buffer, "mtbuf": buffer, "mimg": mimg,
    "flat": flat, "global": flat, "scratch": flat, "exp": exp,
}


# ---------------------------------------------------------------------------
# llvm-mc


def run_llvm(llvm_mc, gen, cpu, extra, stmts):
    """Encodes each statement; returns ({index: words}, {index: error})."""
    lines = []
    for i, s in enumerate(stmts):
        lines.append(f"Lfx{i}:")
        lines.append(llvm_name(gen, s.llvm))
    res = subprocess.run([llvm_mc, "-arch=amdgcn", f"-mcpu={cpu}", *extra, "-show-encoding"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True)
    words, errors = {}, {}
    cur = None
    for line in res.stdout.splitlines():
        lm = re.match(r"^Lfx(\d+):", line)
        if lm:
            cur = int(lm.group(1))
            continue
        em = re.search(r";\s*encoding: \[([^\]]*)\]", line)
        if em and cur is not None:
            bs = [int(b, 16) for b in em.group(1).split(",")]
            if len(bs) % 4:
                errors[cur] = f"odd encoding length {len(bs)}"
                continue
            ws = [int.from_bytes(bytes(bs[k:k + 4]), "little") for k in range(0, len(bs), 4)]
            if cur in words:
                errors[cur] = "two instructions"
            words[cur] = ws
    for line in res.stderr.splitlines():
        em = re.match(r"^<stdin>:(\d+):\d+: error: (.*)", line)
        if em:
            idx = (int(em.group(1)) - 2) // 2
            errors.setdefault(idx, em.group(2))
            words.pop(idx, None)
    return words, errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default="llvm-mc-14")
    ap.add_argument("--rejected", action="store_true", help="print what llvm-mc refused")
    args = ap.parse_args()
    rows = load_rows()
    os.makedirs(OUT, exist_ok=True)
    total = 0
    for gen, name, device, cpu, extra, wave32 in SETS:
        stmts, seen = [], set()
        rows_on = [r for r in rows if gen in r.opcodes]
        if wave32:
            rows_on = [r for r in rows_on if {"vccdst", "vccsrc"} & set(r.kinds())]
        for r in rows_on:
            gen_fn = GENERATORS[r.enc]
            for s in (gen_fn(r, gen, wave32) if wave32 else gen_fn(r, gen)):
                if s.src not in seen:
                    seen.add(s.src)
                    stmts.append(s)
        words, errors = run_llvm(args.llvm_mc, gen, cpu, extra, stmts)
        kept = [(s, words[i]) for i, s in enumerate(stmts) if i in words and i not in errors]
        rejected = [(s, errors.get(i, "no encoding")) for i, s in enumerate(stmts) if i not in words or i in errors]
        path = os.path.join(OUT, f"{name}.txt")
        with open(path, "w") as f:
            f.write(f"# {name}: device {device}{' wave32' if wave32 else ''}; llvm-mc-14 -arch=amdgcn "
                    f"-mcpu={cpu}{''.join(' ' + e for e in extra)} -show-encoding\n")
            f.write(f"# Generated by crates/isa/tools/gen_llvm_fixtures.py from data/instructions.txt: "
                    f"{len(rows_on)} rows, {len(stmts)} statements, {len(kept)} kept, "
                    f"{len(rejected)} refused by llvm-mc.\n")
            f.write("# SRC ;; WORDS [;; llvm: SOURCE GIVEN TO LLVM-MC]\n")
            for s, ws in kept:
                line = f"{s.src} ;; {' '.join(f'{w:08x}' for w in ws)}"
                if llvm_name(gen, s.llvm) != s.src:
                    line += f" ;; llvm: {llvm_name(gen, s.llvm)}"
                f.write(line + "\n")
        total += len(kept)
        print(f"{name:>13}: {len(rows_on):4} rows, {len(stmts):5} statements, {len(kept):5} kept, "
              f"{len(rejected):4} refused by llvm-mc")
        if args.rejected:
            for s, e in rejected:
                print(f"    [{name}] {llvm_name(gen, s.llvm)}   -- {e}")
    print(f"{total} fixtures in {os.path.relpath(OUT)}")


if __name__ == "__main__":
    sys.exit(main())
