#!/usr/bin/env bash
# Assembler benchmark: gcnasm against llvm-mc-14 on the same 1,000,000-line program.
#
#   scripts/bench-asm.sh [LINES] [SET MCPU GPU]      (defaults: 1000000 gcn1.2 tonga Tonga)
#
# The program cycles the conformance corpus's single-statement good cases of one
# architecture (../shared/conformance/instructions.jsonl), kept to the lines both
# assemblers take (scripts/bench_gen.py). gcnasm is built in release
# (CARGO_TARGET_DIR, default /work/target-bench) and run as
# `gcnasm -b rawcode -g GPU -o OUT bench.s`; llvm-mc as
# `llvm-mc-14 -arch=amdgcn -mcpu=MCPU -filetype=obj -o OUT bench.s`. Both run under
# /usr/bin/time -v, RUNS times each (default 3), taking turns; the table gives the median
# wall time, the median CPU time (user + system), the highest peak RSS and the ratios
# ours/llvm-mc.
# Set KEEP=1 to keep the temporary directory (the program, outputs, time logs).
set -euo pipefail

LINES=${1:-1000000}
SET=${2:-gcn1.2}
MCPU=${3:-tonga}
GPU=${4:-Tonga}
LLVM_MC=${LLVM_MC:-llvm-mc-14}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/target-bench}

command -v "$LLVM_MC" >/dev/null || { echo "needs $LLVM_MC (apt-get install llvm-14)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

echo "building gcnasm (release, $CARGO_TARGET_DIR)..." >&2
cargo build --release --quiet -p gcnasm --manifest-path "$ROOT/Cargo.toml"
GCNASM=$CARGO_TARGET_DIR/release/gcnasm

TMP=$(mktemp -d)
if [ "${KEEP:-0}" = 1 ]; then echo "keeping $TMP" >&2; else trap 'rm -rf "$TMP"' EXIT; fi

python3 "$ROOT/scripts/bench_gen.py" --out "$TMP" --set "$SET" --mcpu "$MCPU" --gpu "$GPU" \
    --lines "$LINES" --llvm-mc "$LLVM_MC" --gcnasm "$GCNASM" >&2

# run NAME CMD...: runs CMD under /usr/bin/time -v, prints "wall_s cpu_s peak_kib" (cpu:
# user + system, steadier than wall time on a loaded machine).
run() {
    local name=$1; shift
    if ! /usr/bin/time -v -o "$TMP/$name.time" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"; then
        echo "$name failed:" >&2; head -5 "$TMP/$name.err" >&2; exit 1
    fi
    awk -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; wall = s }
        /User time \(seconds\)/ { cpu += $2 }
        /System time \(seconds\)/ { cpu += $2 }
        /Maximum resident set size/ { rss = $2 }
        END { print wall, cpu, rss }' "$TMP/$name.time"
}

# RUNS rounds, the two assemblers taking turns (so that a slower spell of a shared
# machine hits both); each figure is the median of its runs, peak memory the highest.
RUNS=${RUNS:-3}
: >"$TMP/ours.runs"
: >"$TMP/llvm.runs"
for _ in $(seq "$RUNS"); do
    run gcnasm "$GCNASM" -b rawcode -g "$GPU" -o "$TMP/gcnasm.bin" "$TMP/bench.s" >>"$TMP/ours.runs"
    run llvm-mc "$LLVM_MC" -arch=amdgcn -mcpu="$MCPU" -filetype=obj -o "$TMP/llvm.o" "$TMP/bench.s" >>"$TMP/llvm.runs"
done
# summary FILE: "median_wall median_cpu max_rss" of the runs in FILE.
summary() {
    python3 -c '
import statistics, sys
runs = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
print(statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), max(r[2] for r in runs))
' "$1"
}
read -r ours_wall ours_cpu ours_rss < <(summary "$TMP/ours.runs")
read -r llvm_wall llvm_cpu llvm_rss < <(summary "$TMP/llvm.runs")
echo "gcnasm wall times: $(cut -d' ' -f1 "$TMP/ours.runs" | tr '\n' ' ')s; llvm-mc: $(cut -d' ' -f1 "$TMP/llvm.runs" | tr '\n' ' ')s" >&2

ours_bytes=$(stat -c %s "$TMP/gcnasm.bin")
llvm_text=$(llvm-objdump-14 -h "$TMP/llvm.o" 2>/dev/null | python3 -c "import sys; print(next((int(l.split()[2], 16) for l in sys.stdin if len(l.split()) > 2 and l.split()[1] == '.text'), '?'))" || true)
echo "output: gcnasm $ours_bytes bytes of code, llvm-mc .text ${llvm_text:-?} bytes" >&2

awk -v ow="$ours_wall" -v oc="$ours_cpu" -v orss="$ours_rss" \
    -v lw="$llvm_wall" -v lc="$llvm_cpu" -v lrss="$llvm_rss" -v lines="$LINES" -v runs="$RUNS" 'BEGIN {
    printf "%-10s %10s %10s %10s\n", "", "wall s", "cpu s", "peak MiB"
    printf "%-10s %10.2f %10.2f %10.1f\n", "gcnasm", ow, oc, orss / 1024
    printf "%-10s %10.2f %10.2f %10.1f\n", "llvm-mc", lw, lc, lrss / 1024
    printf "%-10s %9.3fx %9.3fx %9.3fx\n", "ours/llvm", (lw > 0 ? ow / lw : 0), (lc > 0 ? oc / lc : 0), (lrss > 0 ? orss / lrss : 0)
    printf "(%d lines, medians of %d runs; goal: <= 0.13x llvm-mc wall time, <= 32 MiB peak)\n", lines, runs
}'
