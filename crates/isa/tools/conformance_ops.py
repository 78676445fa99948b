#!/usr/bin/env python3
"""Decode the encoding class and opcode of every good case in the conformance corpus.

One-off helper for building data/instructions.txt: the expected words of a case
tell which opcode clrxasm used for that mnemonic on that generation.
"""
import json
import re

CASES = "/work/shared/conformance/instructions.jsonl"
SET_GEN = {"gcn1.0": "1.0", "gcn1.1": "1.1", "gcn1.2": "1.2", "gcn1.4": "1.4",
           "gcn1.4.1": "1.4.1", "gcn1.5": "1.5", "gcn1.5-multi": "1.5",
           "gcn1.5-wave32": "1.5", "gcn1.5.1": "1.5.1"}


def bits(w, hi, lo):
    return (w >> lo) & ((1 << (hi - lo + 1)) - 1)


def decode(gen, w, w1):
    """(encoding, opcode) of the instruction whose first words are w, w1."""
    old = gen in ("1.0", "1.1")
    gfx10 = gen.startswith("1.5")
    if bits(w, 31, 23) == 0b101111101: return "sop1", bits(w, 15, 8)
    if bits(w, 31, 23) == 0b101111110: return "sopc", bits(w, 22, 16)
    if bits(w, 31, 23) == 0b101111111: return "sopp", bits(w, 22, 16)
    if bits(w, 31, 28) == 0b1011: return "sopk", bits(w, 27, 23)
    if bits(w, 31, 30) == 0b10: return "sop2", bits(w, 29, 23)
    if bits(w, 31, 31) == 0:
        if bits(w, 31, 25) == 0b0111111: return "vop1", bits(w, 16, 9)
        if bits(w, 31, 25) == 0b0111110: return "vopc", bits(w, 24, 17)
        return "vop2", bits(w, 30, 25)
    top6 = bits(w, 31, 26)
    if old:
        if bits(w, 31, 27) == 0b11000: return "smrd", bits(w, 26, 22)
        if top6 == 0b110100: return "vop3", bits(w, 25, 17)
        if top6 == 0b110010: return "vintrp", bits(w, 17, 16)
        if top6 == 0b110110: return "ds", bits(w, 25, 18)
        if top6 == 0b111010: return "mtbuf", bits(w, 18, 16)
        if top6 == 0b111110: return "exp", 0
    elif not gfx10:
        if top6 == 0b110000: return "smem", bits(w, 25, 18)
        if bits(w, 31, 23) == 0b110100111: return "vop3p", bits(w, 22, 16)
        if top6 == 0b110100: return "vop3", bits(w, 25, 16)
        if top6 == 0b110101: return "vintrp", bits(w, 17, 16)
        if top6 == 0b110110: return "ds", bits(w, 24, 17)
        if top6 == 0b111010: return "mtbuf", bits(w, 18, 15)
        if top6 == 0b110001: return "exp", 0
    else:
        if top6 == 0b111101: return "smem", bits(w, 25, 18)
        if bits(w, 31, 24) == 0b11001100: return "vop3p", bits(w, 22, 16)
        if top6 == 0b110101: return "vop3", bits(w, 25, 16)
        if top6 == 0b110010: return "vintrp", bits(w, 17, 16)
        if top6 == 0b110110: return "ds", bits(w, 25, 18)
        if top6 == 0b111010: return "mtbuf", bits(w, 18, 16) | (bits(w1, 21, 21) << 3)
        if top6 == 0b111110: return "exp", 0
    if top6 == 0b111000: return "mubuf", bits(w, 24, 18) | (bits(w, 25, 25) << 7 if gfx10 else 0)
    if top6 == 0b111100: return "mimg", bits(w, 24, 18) | (bits(w, 0, 0) << 7 if gfx10 else 0)
    if top6 == 0b110111:
        seg = ["flat", "scratch", "global", "?"][bits(w, 15, 14)] if not old and gen != "1.2" else "flat"
        return seg, bits(w, 24, 18)
    return "?", None


def mnemonics(src):
    """Instruction words of a case source: first word of each statement that isn't
    an assignment, a label or a directive, with encoding suffixes split off."""
    out = []
    for stmt in re.split(r"[;\n]", src):
        words = stmt.split()
        if not words or "=" in words[0] or words[0].startswith(".") or words[0].endswith(":") \
                or (len(words) > 1 and words[1].startswith("=")):
            continue
        m = re.match(r"^(.*?)(_e32|_e64|_sdwa|_dpp8|_dpp)?$", words[0].lower())
        out.append((m.group(1), m.group(2) or ""))
    return out


def cases():
    for line in open(CASES, encoding="utf-8"):
        yield json.loads(line)


def observed():
    """[(gen, mnemonic, suffix, encoding, opcode, src)] for single-instruction good cases."""
    out = []
    for c in cases():
        if not c["good"]:
            continue
        ms = mnemonics(c["src"])
        if len(ms) != 1 or not c["words"]:
            continue
        gen = SET_GEN[c["set"]]
        ws = [int(x, 16) for x in c["words"]] + [0]
        enc, op = decode(gen, ws[0], ws[1])
        out.append((gen, ms[0][0], ms[0][1], enc, op, c["src"].strip()))
    return out


if __name__ == "__main__":
    seen = {}
    for gen, m, suf, enc, op, src in observed():
        seen.setdefault((gen, m, enc, op), src)
    for k, src in sorted(seen.items()):
        print(*k, "|", src)
