#!/usr/bin/env python3
"""One-off: write the first data/instructions.txt from the CLRX docs (GCN 1.0-1.4),
the conformance corpus (GCN 1.4.1, 1.5, 1.5.1) and llvm-mc-14 (GCN 1.5 instructions
the corpus doesn't exercise). After this ran, data/instructions.txt is the source of
truth: edit it by hand and don't run this again over it.

    python3 tools/make_table.py > data/instructions.txt
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from extract_docs import all_old_opcodes, doc_syntax          # noqa: E402
from conformance_ops import observed, decode                  # noqa: E402
from operands import operands                                 # noqa: E402

GENS = ["1.0", "1.1", "1.2", "1.4", "1.4.1", "1.5", "1.5.1"]
VOP3_BASE = {  # VOP3 opcode of a VOP1/VOP2/VOPC opcode, per generation group
    "vop1": {"old": 0x180, "vi": 0x140, "nv": 0x180},
    "vop2": {"old": 0x100, "vi": 0x100, "nv": 0x100},
    "vopc": {"old": 0, "vi": 0, "nv": 0},
}


def group(gen):
    return "old" if gen in ("1.0", "1.1") else ("nv" if gen.startswith("1.5") else "vi")


def fix_docs(t):
    """Corrections where the docs' tables disagree with clrxasm (checked against the corpus)."""
    for i, n in enumerate(["s_buffer_store_dword", "s_buffer_store_dwordx2", "s_buffer_store_dwordx4"]):
        for g in ("1.2", "1.4"):
            t.setdefault(("smem", n), {})[g] = (24 + i, None, "")
            t[("smem", n.replace("store", "load"))][g] = (8 + i, None, "")
    for (enc, n), gens in t.items():
        if enc == "smem" and n.startswith("s_buffer_atomic") and "1.4" in gens:
            gens["1.2"] = gens["1.4"]
        if enc == "mtbuf" and "1.2" in gens:
            gens["1.4"] = gens["1.2"]
    for old, new in (("buffer_store_byte_d16", "buffer_store_byte_d16_hi"),
                     ("buffer_store_short_d16", "buffer_store_short_d16_hi")):
        t[("mubuf", new)] = {"1.4": t[("mubuf", old)].pop("1.4")}
    for n, o in (("image_gather4h", 66), ("image_gather4h_pck", 74), ("image_gather8h_pck", 75)):
        t[("mimg", n)] = {"1.4": (o, None, "")}
    t[("ds", "ds_ordered_count")].update(t.pop(("ds", "ds_ordered_count (???)")))
    t[("exp", "exp")] = {g: (0, None, "") for g in ("1.0", "1.1", "1.2", "1.4")}
    # names the docs give in a section heading next to the tabled name
    for alias, name, gens in (("v_add_u32", "v_add_i32", ("1.0", "1.1")),
                              ("v_sub_u32", "v_sub_i32", ("1.0", "1.1")),
                              ("v_subrev_u32", "v_subrev_i32", ("1.0", "1.1")),
                              ("v_add_i32", "v_add_u32", ("1.2",)),
                              ("v_sub_i32", "v_sub_u32", ("1.2",)),
                              ("v_subrev_i32", "v_subrev_u32", ("1.2",))):
        for g in gens:
            t.setdefault(("vop2", alias), {})[g] = t[("vop2", name)][g]
    for alias, name in (("v_mqsad_u8", "v_mqsad_pk_u16_u8"), ("v_qsad_u8", "v_qsad_pk_u16_u8")):
        t[("vop3", alias)] = dict(t[("vop3", name)])
    # VOP3 table rows marked (VINTRP): the VOP3 form of VINTRP and VOP3-only interpolation
    for (enc, n) in list(t):
        if enc == "vop3" and n.endswith(" (vintrp)"):
            gens = t.pop((enc, n))
            n = n[:-9].replace("p2_f16_legacy", "p2_legacy_f16")
            if ("vintrp", n) in t:
                for g, (o, _, f) in gens.items():
                    t[("vintrp", n)][g] = (t[("vintrp", n)][g][0], o, f)
            else:
                t[("vop3", n)] = {g: (o, v, "interp") for g, (o, v, _) in gens.items()}
    return t


def add_gen_from_corpus(t, gen, base_gen):
    """Copy base_gen to gen (for 1.4.1/1.5.1) and add what the corpus shows for gen."""
    if base_gen:
        for gens in t.values():
            if base_gen in gens:
                gens[gen] = gens[base_gen]
    prev = {n: e for (e, n), gens in t.items() if e in ("vop1", "vop2", "vopc")}
    for g, m, suf, enc, o, src in observed():
        if g != gen:
            continue
        limit = {"vop1": 0x80, "vop2": 0x40, "vopc": 0x100}
        if enc == "vop3" and m in prev and \
                0 <= o - VOP3_BASE[prev[m]][group(gen)] < limit[prev[m]]:
            e = prev[m]
            base = VOP3_BASE[e][group(gen)]
            cur = t[(e, m)].get(gen)
            t[(e, m)][gen] = (cur[0] if cur else o - base, o, cur[2] if cur else "")
            continue
        if enc in ("vop1", "vop2", "vopc"):
            cur = t.get((enc, m), {}).get(gen)
            v3 = cur[1] if cur and cur[1] is not None else o + VOP3_BASE[enc][group(gen)]
            t.setdefault((enc, m), {})[gen] = (o, v3, cur[2] if cur else "")
            prev[m] = enc
            continue
        t.setdefault((enc, m), {})[gen] = (o, None, "")


def sample_operand(tok, i):
    """Operand text for probing llvm-mc, from an operand token of the data file."""
    kind, _, rest = tok.partition(":")
    regs = int(rest.split(":")[0].split("-")[0]) if rest and rest[0].isdigit() else 1
    rng = lambda p, b: f"{p}{b}" if regs == 1 else f"{p}[{b}:{b + regs - 1}]"
    table = {"sdst": rng("s", 10), "ssrc": rng("s", 20 + 2 * i), "sdata": rng("s", 12),
             "vdst": rng("v", 1), "src": rng("v", 10 + 4 * i), "vsrc": rng("v", 10 + 4 * i),
             "vdata": rng("v", 20), "vaddr": rng("v", 30), "addr": "v30",
             "vccdst": "vcc", "vccsrc": "vcc", "simm16": "0x10", "imm16": "0x10",
             "reladdr": "0", "sbase": rng("s", 4), "smoff": "0x10", "srsrc": "s[8:11]",
             "soffset": "s1", "saddr": "s[40:41]", "kimm": "0x1234", "sdataimm": "1",
             "hwreg": "hwreg(HW_REG_MODE, 0, 1)", "attr": "attr0.x", "interp": "p10"}
    return table.get(kind, "0")


def probe_gfx10(t):
    """Ask llvm-mc for GCN 1.4 instructions the corpus has no GCN 1.5 case of."""
    syn = doc_syntax()
    todo = []
    for (enc, m), gens in t.items():
        if "1.4" in gens and "1.5" not in gens and enc != "exp":
            ops, _ = operands(m, enc, "1.5", syn.get(m))
            text = ", ".join(sample_operand(o, i) for i, o in enumerate(ops.split(",")) if ops != "-")
            if enc in ("mubuf", "mtbuf"):
                text += " offen"
            todo.append((enc, m, f"{m} {text}"))
    src = "\n".join(line for _, _, line in todo) + "\n"
    res = subprocess.run(["llvm-mc-14", "-arch=amdgcn", "-mcpu=gfx1010", "-show-encoding"],
                         input=src, capture_output=True, text=True)
    bad_lines = {int(x) for x in re.findall(r"<stdin>:(\d+):", res.stderr)}
    encs = re.findall(r"encoding: \[([^\]]*)\]", res.stdout)
    ok = [x for i, x in enumerate(todo) if i + 1 not in bad_lines]
    for (enc, m, line), e in zip(ok, encs):
        b = [int(x, 16) for x in e.split(",")]
        words = [int.from_bytes(bytes(b[i:i + 4]), "little") for i in range(0, len(b), 4)] + [0]
        denc, o = decode("1.5", words[0], words[1])
        if denc == enc:
            t[(enc, m)]["1.5"] = (o, None, "")
        elif denc == "vop3" and enc in ("vop1", "vop2", "vopc"):
            t.setdefault(("vop3", m), {})["1.5"] = (o, None, "")   # VOP3-only on GCN 1.5
        else:
            print(f"# probe: {m}: llvm-mc encoded as {denc}", file=sys.stderr)
        print(f"# probe: {line} -> {denc} {o}", file=sys.stderr)
    for i, (enc, m, line) in enumerate(todo):
        if i + 1 in bad_lines:
            print(f"# probe: not on gfx1010: {line}", file=sys.stderr)
    for gens in t.values():
        if "1.5" in gens and "1.5.1" not in gens:
            gens["1.5.1"] = gens["1.5"]


# GCN 1.5 instructions that neither the docs nor the corpus have, with the opcodes
# llvm-mc-14 disassembles them from on gfx1010.
LLVM_GFX10_EXTRA = [("mubuf", "buffer_atomic_fcmpswap", 62), ("mubuf", "buffer_atomic_fmin", 63),
                    ("mubuf", "buffer_atomic_fmax", 64), ("mubuf", "buffer_atomic_fcmpswap_x2", 94),
                    ("mubuf", "buffer_atomic_fmin_x2", 95), ("mubuf", "buffer_atomic_fmax_x2", 96),
                    ("mimg", "image_atomic_fcmpswap", 29), ("mimg", "image_atomic_fmin", 30),
                    ("mimg", "image_atomic_fmax", 31)]


def build():
    t = fix_docs(all_old_opcodes())
    add_gen_from_corpus(t, "1.4.1", "1.4")
    add_gen_from_corpus(t, "1.5", None)
    for enc, m, o in LLVM_GFX10_EXTRA:
        t.setdefault((enc, m), {})["1.5"] = (o, None, "")
    probe_gfx10(t)
    add_gen_from_corpus(t, "1.5.1", None)
    return t


def fmt_opcodes(enc, per_gen):
    """'1.0-1.1=14 1.2-1.5.1=12' style list, joining runs of equal opcodes."""
    runs = []
    for g in GENS:
        if g not in per_gen:
            continue
        o, v3, _ = per_gen[g]
        val = str(o)
        if enc in ("vop1", "vop2", "vopc") or (enc == "vintrp" and v3 is not None):
            val += "/" + ("-" if v3 is None else str(v3))
        if runs and runs[-1][2] == val and GENS.index(runs[-1][1]) == GENS.index(g) - 1:
            runs[-1][1] = g
        else:
            runs.append([g, g, val])
    return " ".join((a if a == b else f"{a}-{b}") + "=" + v for a, b, v in runs)


ENC_ORDER = ["sop2", "sopk", "sop1", "sopc", "sopp", "smrd", "smem", "vop2", "vop1", "vopc",
             "vop3", "vop3p", "vintrp", "ds", "mubuf", "mtbuf", "mimg", "exp", "flat",
             "global", "scratch"]


def rows(t):
    syn = doc_syntax()
    out = []
    for (enc, m), gens in t.items():
        groups = {}
        for g in GENS:
            if g not in gens:
                continue
            ops, flags = operands(m, enc, g, syn.get(m), gens[g][2])
            if "noe64" not in flags and enc in ("vop1", "vop2", "vopc") and gens[g][1] is None:
                flags = ",".join(x for x in (flags, "noe64") if x)
            if gens[g][2] == "vop3b" and "vop3b" not in flags:
                flags = ",".join(x for x in (flags, "vop3b") if x)
            if "noe64" in flags:
                gens[g] = (gens[g][0], None, gens[g][2])
            groups.setdefault((ops, flags), {})[g] = gens[g]
        for (ops, flags), per_gen in groups.items():
            out.append((ENC_ORDER.index(enc), m, enc, ops, flags or "-", fmt_opcodes(enc, per_gen)))
    out.sort(key=lambda r: (r[0], r[1], GENS.index(r[5].split("=")[0].split("-")[0])))
    return out


HEADER = """\
# GCN instruction table: the source of truth for crates/isa/src/generated/instructions.rs.
# Regenerate the Rust file with `cargo test -p gcn-isa` (the sourcegen test rewrites it).
#
# One row per mnemonic + encoding + operand form:
#   mnemonic  encoding  operands  flags  GEN[-GEN]=OPCODE[/VOP3OPCODE] ...
# Generations: 1.0 1.1 1.2 1.4 1.4.1 1.5 1.5.1. A generation not listed lacks the row.
# A mnemonic may have several rows of one encoding when its operands differ between
# generations; their generations never overlap.
# VOP1/VOP2/VOPC (and VINTRP on GCN 1.2+) rows give the VOP3 opcode after '/',
# '-' when the instruction has no VOP3 form.
# Operands: comma-separated KIND[:REGS][:TYPE], '-' for none. REGS is a count or a
# MIN-MAX range (MIMG/MUBUF), TYPE is f16/f32/f64 (float) or b16 (16-bit int).
# Kinds and flags are documented in src/table.rs.
"""


def main():
    t = build()
    print(HEADER)
    last = None
    for r in rows(t):
        if r[2] != last:
            print(f"\n# ---- {r[2]}")
            last = r[2]
        print(f"{r[1]:<30} {r[2]:<7} {r[3]:<44} {r[4]:<14} {r[5]}")


if __name__ == "__main__":
    main()
