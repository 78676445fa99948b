#!/usr/bin/env python3
"""Cross-check data/instructions.txt against llvm-mc-14 (a second oracle; not needed
by the crate or its tests).

For each generation from GCN 1.2 on (llvm-mc-14 can't disassemble GCN 1.0/1.1), it
disassembles every opcode of every encoding and reports mnemonics whose opcode differs
from the table, and mnemonics only one side has (LLVM and CLRX names differ at times).

    python3 tools/llvm_crosscheck.py
"""
import os
import re
import subprocess

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "instructions.txt")
GENS = ["1.0", "1.1", "1.2", "1.4", "1.4.1", "1.5", "1.5.1"]
CPUS = {"1.2": "tonga", "1.4": "gfx900", "1.4.1": "gfx906", "1.5": "gfx1010", "1.5.1": "gfx1011"}


def le(ws):
    return ",".join(f"0x{b:02x}" for w in ws for b in w.to_bytes(4, "little"))


def candidates_vi(gen):
    """(encoding, opcode, words) probes in the GCN 1.2/1.4 layout."""
    si = False
    cands = []
    add = lambda enc, op, ws: cands.append((enc, op, ws))
    for op in range(128): add('sop2', op, [0x80000000 | op<<23 | 0x0a<<16 | 0x0201, 0, 0])
    for op in range(32): add('sopk', op, [0xb0000000 | op<<23 | 0x0a<<16 | 0x10, 0, 0])
    for op in range(256): add('sop1', op, [0xbe800000 | op<<8 | 0x0a<<16 | 0x02, 0, 0])
    for op in range(128): add('sopc', op, [0xbf000000 | op<<16 | 0x0201, 0, 0])
    for op in range(128): add('sopp', op, [0xbf800000 | op<<16 | 0x1, 0, 0])
    if si:
        for op in range(32): add('smrd', op, [0xc0000000 | op<<22 | 0x4<<15 | 2<<9 | 0x100 | 4, 0, 0])
    else:
        for op in range(256): add('smem', op, [0xc0000000 | op<<18 | 0x20000 | 0x280 | 2, 0x10, 0])
    for op in range(256): add('vop1', op, [0x7e000000 | op<<9 | 0x01<<17 | 0x102, 0, 0])
    for op in range(64): add('vop2', op, [op<<25 | 0x01<<17 | 0x03<<9 | 0x102, 0x1234, 0])
    for op in range(256): add('vopc', op, [0x7c000000 | op<<17 | 0x03<<9 | 0x102, 0, 0])
    if si:
        for op in range(512): add('vop3', op, [0xd0000000 | op<<17 | 0x01, 0x00000502 | (0x104<<18), 0])
        for op in range(256): add('ds', op, [0xd8000000 | op<<18, 0x01000302, 0])
        for op in range(8): add('mtbuf', op, [0xe8000000 | op<<16 | 0x1000 | 1<<19, 0x00020301, 0])
    else:
        for op in range(1024): add('vop3', op, [0xd0000000 | op<<16 | 0x01, 0x00000502 | (0x104<<18), 0])
        for op in range(128): add('vop3p', op, [0xd3800000 | op<<16 | 0x01 | 0x4000, 0x18000502 | (0x104<<18), 0])
        for op in range(256): add('ds', op, [0xd8000000 | op<<17, 0x01000302, 0])
        for op in range(16): add('mtbuf', op, [0xe8000000 | op<<15 | 0x1000 | 1<<19, 0x00020301, 0])
    for op in range(128): add('mubuf', op, [0xe0000000 | op<<18 | 0x1000, 0x00020301, 0])
    for op in range(128): add('mimg', op, [0xf0000000 | op<<18 | 0xf00, 0x00020301, 0])
    if gen != "1.0":
        segs = ((0,'flat'),(1,'scratch'),(2,'global')) if gen >= "1.4" else ((0,'flat'),)
        for seg, name in segs:
            for op in range(128): add(name, op, [0xdc000000 | op<<18 | seg<<14, 0x017f0302 if seg else 0x01000302, 0])
    return cands


def candidates_gfx10():
    """(encoding, opcode, words) probes in the GCN 1.5 layout."""
    cands = []
    add = lambda enc, op, ws: cands.append((enc, op, ws))
    for op in range(128): add('sop2', op, [0x80000000 | op<<23 | 0x0a<<16 | 0x0201, 0, 0])
    for op in range(32): add('sopk', op, [0xb0000000 | op<<23 | 0x0a<<16 | 0x10, 0, 0])
    for op in range(256): add('sop1', op, [0xbe800000 | op<<8 | 0x0a<<16 | 0x02, 0, 0])
    for op in range(128): add('sopc', op, [0xbf000000 | op<<16 | 0x0201, 0, 0])
    for op in range(128): add('sopp', op, [0xbf800000 | op<<16 | 0x1, 0, 0])
    for op in range(256): add('smem', op, [0xf4000000 | op<<18 | 0x280 | 2, 0xfa000010, 0])
    for op in range(256): add('vop1', op, [0x7e000000 | op<<9 | 0x01<<17 | 0x102, 0, 0])
    for op in range(64): add('vop2', op, [op<<25 | 0x01<<17 | 0x03<<9 | 0x102, 0x1234, 0])
    for op in range(256): add('vopc', op, [0x7c000000 | op<<17 | 0x03<<9 | 0x102, 0, 0])
    for op in range(1024): add('vop3', op, [0xd4000000 | op<<16 | 0x01, 0x00000502 | (0x104<<18), 0])
    for op in range(128): add('vop3p', op, [0xcc000000 | op<<16 | 0x01 | 0x4000, 0x18000502 | (0x104<<18), 0])
    for op in range(256): add('ds', op, [0xd8000000 | op<<18, 0x01000302, 0])
    for op in range(256): add('mubuf', op, [0xe0000000 | (op&0x7f)<<18 | (op>>7)<<25 | 0x1000, 0x00020301, 0])
    for op in range(16): add('mtbuf', op, [0xe8000000 | (op&7)<<16 | 0x1000 | 1<<19, 0x00020301 | (op>>3)<<21, 0])
    for op in range(256): add('mimg', op, [0xf0000000 | (op&0x7f)<<18 | (op>>7) | 0xf00, 0x00020301, 0])
    for seg, name in ((0,'flat'),(1,'scratch'),(2,'global')):
        for op in range(128): add(name, op, [0xdc000000 | op<<18 | seg<<14, 0x017f0302 if seg else 0x01000302, 0])
    return cands


# Probes that land in another encoding's space (the prefixes overlap) and would
# disassemble as that encoding's instructions.
ARTIFACT = re.compile(r"^(sop2 (9[6-9]|1[0-2][0-9])|sopk (29|30|31)|vop2 (62|63)|vop3 (89[6-9]|9[0-9][0-9])|mtbuf ([89]|1[0-5])) ")


def llvm_names(gen):
    cands = candidates_gfx10() if gen.startswith("1.5") else candidates_vi(gen)
    src = "\n".join(le(ws) for _, _, ws in cands) + "\n"
    res = subprocess.run(["llvm-mc-14", "-arch=amdgcn", f"-mcpu={CPUS[gen]}", "-disassemble",
                          "-show-encoding"], input=src, capture_output=True, text=True)
    enc_map = {}
    for line in res.stdout.splitlines():
        m = re.match(r"\s*(\S+)(.*?);\s*encoding: \[([^\]]*)\]", line)
        if m:
            enc_map.setdefault(",".join(m.group(3).split(",")[:4]), m.group(1))
    out = {}
    for enc, op, ws in cands:
        n = enc_map.get(le([ws[0]]))
        if n and not ARTIFACT.match(f"{enc} {op} "):
            out.setdefault(re.sub(r"_e(32|64)$", "", n), []).append((enc, op))
    return out


def table(gen):
    mine = {}
    for line in open(DATA):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split()
        for tok in f[4:]:
            g, v = tok.split("=")
            a, _, b = g.partition("-")
            b = b or a
            op, _, v3 = v.partition("/")
            if GENS.index(a) <= GENS.index(gen) <= GENS.index(b):
                mine.setdefault(f[0], []).append((f[1], int(op), int(v3) if v3 not in ("", "-") else None))
    return mine


def compare(gen):
    mine, llvm = table(gen), llvm_names(gen)
    for n, encs in sorted(llvm.items()):
        if n not in mine:
            print(f"{gen} llvm-only {n} {encs}")
            continue
        for e, o in encs:
            if not any((me == e and mo == o) or (e == "vop3" and v3 == o) for me, mo, v3 in mine[n]):
                print(f"{gen} opcode {n} llvm={e}:{o} table={mine[n]}")
    print(f"{gen}: {len(llvm)} llvm mnemonics, {len(set(mine) - set(llvm))} table-only")


if __name__ == "__main__":
    for g in CPUS:
        compare(g)
