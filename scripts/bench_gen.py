#!/usr/bin/env python3
"""Benchmark input for scripts/bench-asm.sh: a program of N instruction lines cycled
from the conformance corpus's single-statement good cases of one architecture, kept to
the lines both assemblers take, so gcnasm and llvm-mc assemble the same text.

    python3 scripts/bench_gen.py --out DIR [--set gcn1.2] [--mcpu tonga] [--lines 1000000]
                                 [--gcnasm target/release/gcnasm] [--gpu Tonga]

Writes DIR/bench.s and prints how many distinct statements were taken. Filtering:
1. single statements of the set that the corpus says assemble (no `;`, newline, `=`,
   no label definition);
2. llvm-mc accepts it (one llvm-mc run over the distinct lines);
3. gcnasm assembles it alone (a statement naming an undefined symbol would make a
   raw-code program fail; one gcnasm run per refused batch, bisecting).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "shared", "conformance", "instructions.jsonl")


def corpus_lines(path, set_name):
    out, seen = [], set()
    for line in open(path):
        v = json.loads(line)
        # Cases the reference warned about (a value cut, a modifier twice) would fill the
        # run with diagnostics: the benchmark measures assembling.
        if v["set"] != set_name or not v["good"] or v["errors"]:
            continue
        src = v["src"].strip()
        if not src or any(c in src for c in ";\n="):
            continue
        if re.match(r"^[\w.$@]+\s*:(?!:)", src):  # a label definition
            continue
        src = re.sub(r"\s+", " ", src)
        if src not in seen:
            seen.add(src)
            out.append(src)
    return out


def llvm_accepts(llvm_mc, mcpu, lines):
    """The lines llvm-mc encodes without an error (labels mark each line's output)."""
    text = "".join(f"Lbench{i}:\n{s}\n" for i, s in enumerate(lines))
    res = subprocess.run([llvm_mc, "-arch=amdgcn", f"-mcpu={mcpu}", "-show-encoding"],
                         input=text, capture_output=True, text=True)
    bad = set()
    for line in res.stderr.splitlines():
        m = re.match(r"^<stdin>:(\d+):\d+: error", line)
        if m:
            bad.add((int(m.group(1)) - 2) // 2)
    encoded, cur = set(), None
    for line in res.stdout.splitlines():
        m = re.match(r"^Lbench(\d+):", line)
        if m:
            cur = int(m.group(1))
        elif "encoding:" in line and cur is not None:
            encoded.add(cur)
    return [s for i, s in enumerate(lines) if i in encoded and i not in bad]


def gcnasm_accepts(gcnasm, gpu, lines, tmp):
    """The lines gcnasm assembles (bisects refused batches)."""
    src, out = os.path.join(tmp, "probe.s"), os.path.join(tmp, "probe.bin")

    def ok(batch):
        with open(src, "w") as f:
            f.write("\n".join(batch) + "\n")
        return subprocess.run([gcnasm, "-b", "rawcode", "-g", gpu, "-o", out, src],
                              capture_output=True).returncode == 0

    keep = []

    def walk(batch):
        if ok(batch):
            keep.extend(batch)
        elif len(batch) > 1:
            walk(batch[:len(batch) // 2])
            walk(batch[len(batch) // 2:])

    walk(lines)
    order = {s: i for i, s in enumerate(lines)}
    return sorted(keep, key=order.get)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--set", default="gcn1.2")
    ap.add_argument("--mcpu", default="tonga")
    ap.add_argument("--gpu", default="Tonga")
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--llvm-mc", default="llvm-mc-14")
    ap.add_argument("--gcnasm", default=None, help="also drop lines gcnasm refuses")
    ap.add_argument("--corpus", default=CORPUS)
    args = ap.parse_args()

    lines = corpus_lines(args.corpus, args.set)
    n_corpus = len(lines)
    lines = llvm_accepts(args.llvm_mc, args.mcpu, lines)
    n_llvm = len(lines)
    if args.gcnasm:
        with tempfile.TemporaryDirectory() as tmp:
            lines = gcnasm_accepts(args.gcnasm, args.gpu, lines, tmp)
    if not lines:
        sys.exit("no statements left")
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "bench.s")
    with open(path, "w") as f:
        for i in range(args.lines):
            f.write(lines[i % len(lines)])
            f.write("\n")
    print(f"{args.set}: {n_corpus} distinct single statements, {n_llvm} accepted by llvm-mc, "
          f"{len(lines)} by both; {args.lines} lines -> {path} ({os.path.getsize(path) / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()
