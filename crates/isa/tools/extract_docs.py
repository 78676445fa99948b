#!/usr/bin/env python3
"""One-off extraction of the GCN 1.0-1.4 opcode tables from the CLRX markdown docs.

Reads /work/shared/reference/clrx-doc/GcnInstrs*.md and returns, per (encoding,
mnemonic), the opcode for each generation that has the instruction. Used by
make_table.py to write the first version of data/instructions.txt; after that,
the data file is the source of truth and this script is not run again.
"""
import re
import sys

DOC_DIR = "/work/shared/reference/clrx-doc"
OLD_GENS = ["1.0", "1.1", "1.2", "1.4"]

# doc file -> (encoding of its rows, generations when the doc/table says nothing)
DOCS = {
    "Sop2": ("sop2", OLD_GENS), "Sopk": ("sopk", OLD_GENS), "Sop1": ("sop1", OLD_GENS),
    "Sopc": ("sopc", OLD_GENS), "Sopp": ("sopp", OLD_GENS), "Smrd": ("smrd", ["1.0", "1.1"]),
    "Smem": ("smem", ["1.2", "1.4"]), "Vop1": ("vop1", OLD_GENS), "Vop2": ("vop2", OLD_GENS),
    "Vop3": ("vop3", OLD_GENS), "Vop3p": ("vop3p", ["1.4"]), "Vintrp": ("vintrp", OLD_GENS),
    "Ds": ("ds", OLD_GENS), "Mubuf": ("mubuf", OLD_GENS), "Mtbuf": ("mtbuf", OLD_GENS),
    "Mimg": ("mimg", OLD_GENS), "Flat": ("flat", ["1.1", "1.2"]),
}


def gens_in(text):
    """Generations named in a header like 'GCN 1.0/1.1', 'GCN1.2', '(GCN 1.2/1.4)'."""
    m = re.search(r"GCN ?(1\.\d(?:/1?\.?\d)*)", text)
    if not m:
        return None
    out = []
    for part in m.group(1).split("/"):
        part = part if part.startswith("1.") else "1." + part.lstrip(".")
        out.append(part)
    return out


def parse_tables(doc):
    """Yield (opcode, vop3_opcode, gens, encodings_suffix, names) for every table row."""
    enc, default_gens = DOCS[doc]
    lines = open(f"{DOC_DIR}/GcnInstrs{doc}.md", encoding="utf-8").read().splitlines()
    ctx_gens = default_gens
    header = None
    for line in lines:
        if line.startswith("List of") or line.startswith("Table of"):
            ctx_gens = gens_in(line) or default_gens
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == "Opcode":
            header = cells
            continue
        if header is None:
            continue
        if not cells or not re.match(r"^\d+ \(0x", cells[0]):
            if not line.strip().startswith("---"):
                header = None
            continue
        yield from row_entries(enc, header, cells, ctx_gens)


def row_entries(enc, header, cells, ctx_gens):
    op = int(cells[0].split()[0])
    vop3 = None
    checked = []      # generations/segments ticked in check columns
    tick_cols = False
    names_by_gen = {}
    for h, c in zip(header, cells):
        if h.startswith("Opcode(VOP3)"):
            vop3 = int(c.split()[0])
        elif re.match(r"^GCN ?1\.\d$", h) or h in ("FLAT", "GLOBAL", "SCRATCH"):
            tick_cols = True
            if "✓" in c:
                checked.append(h.replace("GCN", "").strip())
        elif h.startswith("Mnemonic"):
            gens = gens_in(h) or ctx_gens
            if c in ("--", ""):
                continue
            names = [n.strip().replace("\\", "") for n in c.split(",")]
            for g in gens:
                names_by_gen.setdefault(g, names)
    flags = ""
    for g, names in names_by_gen.items():
        if tick_cols and g in ctx_gens and checked and checked[0][0] == "1":
            if g not in checked:
                continue
        for seg in (checked if checked and checked[0][0] != "1" else [None]):
            for n in names:
                e, name = enc, n.lower()
                flags = ""
                if name.endswith(" (vop3b)"):
                    name, flags = name[:-8], "vop3b"
                if seg:
                    e = seg.lower()
                    name = seg.lower() + name[1:]
                yield (e, name, g, op, vop3, flags)


def doc_opcodes():
    """{(enc, mnemonic): {gen: (op, vop3op)}} from all opcode tables."""
    table = {}
    for doc in DOCS:
        for enc, name, gen, op, vop3, flags in parse_tables(doc):
            table.setdefault((enc, name), {})[gen] = (op, vop3, flags)
    return table


if __name__ == "__main__":
    t = doc_opcodes()
    for (enc, name), gens in sorted(t.items()):
        print(enc, name, gens)
    print(len(t), file=sys.stderr)


F_OPS = ["f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle",
         "neq", "nlt", "tru"]
I_OPS = ["f", "lt", "eq", "le", "gt", "lg", "ge", "tru"]
# aliases the docs give next to the names above
CMP_ALIASES = {"tru": ["t"], "lg": ["ne"]}
VOPC_OLD = [(0x00, "cmp", "f32", F_OPS), (0x10, "cmpx", "f32", F_OPS),
            (0x20, "cmp", "f64", F_OPS), (0x30, "cmpx", "f64", F_OPS),
            (0x40, "cmps", "f32", F_OPS), (0x50, "cmpsx", "f32", F_OPS),
            (0x60, "cmps", "f64", F_OPS), (0x70, "cmpsx", "f64", F_OPS),
            (0x80, "cmp", "i32", I_OPS), (0x90, "cmpx", "i32", I_OPS),
            (0xa0, "cmp", "i64", I_OPS), (0xb0, "cmpx", "i64", I_OPS),
            (0xc0, "cmp", "u32", I_OPS), (0xd0, "cmpx", "u32", I_OPS),
            (0xe0, "cmp", "u64", I_OPS), (0xf0, "cmpx", "u64", I_OPS)]
VOPC_NEW = [(0x20, "cmp", "f16", F_OPS), (0x30, "cmpx", "f16", F_OPS),
            (0x40, "cmp", "f32", F_OPS), (0x50, "cmpx", "f32", F_OPS),
            (0x60, "cmp", "f64", F_OPS), (0x70, "cmpx", "f64", F_OPS),
            (0xa0, "cmp", "i16", I_OPS), (0xa8, "cmp", "u16", I_OPS),
            (0xb0, "cmpx", "i16", I_OPS), (0xb8, "cmpx", "u16", I_OPS),
            (0xc0, "cmp", "i32", I_OPS), (0xc8, "cmp", "u32", I_OPS),
            (0xd0, "cmpx", "i32", I_OPS), (0xd8, "cmpx", "u32", I_OPS),
            (0xe0, "cmp", "i64", I_OPS), (0xe8, "cmp", "u64", I_OPS),
            (0xf0, "cmpx", "i64", I_OPS), (0xf8, "cmpx", "u64", I_OPS)]
CLASS_OLD = {"v_cmp_class_f32": 0x88, "v_cmpx_class_f32": 0x98,
             "v_cmp_class_f64": 0xa8, "v_cmpx_class_f64": 0xb8}
CLASS_NEW = {"v_cmp_class_f32": 0x10, "v_cmpx_class_f32": 0x11, "v_cmp_class_f64": 0x12,
             "v_cmpx_class_f64": 0x13, "v_cmp_class_f16": 0x14, "v_cmpx_class_f16": 0x15}


def vopc_opcodes():
    """VOPC rows, generated from the docs' OP16/OP8 range tables (VOP3 opcode = VOPC opcode)."""
    table = {}
    for gens, ranges, classes in ((["1.0", "1.1"], VOPC_OLD, CLASS_OLD),
                                  (["1.2", "1.4"], VOPC_NEW, CLASS_NEW)):
        for base, kind, ty, ops in ranges:
            for i, op in enumerate(ops):
                for name in [op] + CMP_ALIASES.get(op, []):
                    if ops is F_OPS and name == "ne":
                        continue
                    for g in gens:
                        table.setdefault(("vopc", f"v_{kind}_{name}_{ty}"), {})[g] = \
                            (base + i, base + i, "")
        for name, op in classes.items():
            for g in gens:
                table.setdefault(("vopc", name), {})[g] = (op, op, "")
    return table


def all_old_opcodes():
    t = doc_opcodes()
    t.update(vopc_opcodes())
    return t


def doc_syntax():
    """{mnemonic: [(FIELD, count_or_None), ...]} from the 'Syntax:' lines of each
    instruction section. Where a section has several syntax lines (VOPC/VOP3 forms),
    the last one wins, which is the VOP3 form."""
    out = {}
    for doc in DOCS:
        names = []
        for line in open(f"{DOC_DIR}/GcnInstrs{doc}.md", encoding="utf-8"):
            if line.startswith("#### "):
                head = re.sub(r"\(.*?\)", "", line[5:]).strip()
                names = [n.strip().lower() for n in head.split(",") if n.strip()]
                continue
            m = re.match(r"^Syntax[^:]*:\s*\S+\s*(.*)$", line.strip())
            if not m or not names:
                continue
            ops = []
            for tok in re.split(r",\s*(?![^()]*\))", re.sub(r"\[.*?\]", "", m.group(1))):
                tm = re.match(r"^([A-Z0-9_.|{}]+)(?:\((\d+)(?:[:,]\d+)?\))?", tok.strip())
                if tm:
                    ops.append((tm.group(1), int(tm.group(2)) if tm.group(2) else None))
            for n in names:
                out[n] = ops
    return out
