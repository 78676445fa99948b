#!/usr/bin/env bash
# Runs each cargo-fuzz target for a while on a seed corpus made from the test data.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     (default: 60 seconds; parse assemble document features)
#
# Seeds: every crates/*/test_data file (and .s file one folder down) and
# crates/formats/tests/data/*/*.s, and when
# ../shared/conformance (or $CONFORMANCE) is present, its module sources and its
# instruction lines (grouped by set, 40 lines a seed). The corpus grows in fuzz/corpus/TARGET; crashes go to
# fuzz/artifacts/TARGET; each run's log is fuzz/artifacts/TARGET.log, whose last lines
# give the executions (`#N DONE`). Needs cargo-fuzz (`cargo install cargo-fuzz`); uses
# RUSTC_BOOTSTRAP=1 on a stable toolchain. Run it with `nice -n 19` on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parse assemble document features)
conformance=${CONFORMANCE:-../shared/conformance}
[ -d "$conformance" ] || conformance=/work/shared/conformance

seed() {
    local dir=$1
    mkdir -p "$dir"
    for f in crates/*/test_data/*; do
        [ -f "$f" ] && cp "$f" "$dir/td-$(basename "$(dirname "$(dirname "$f")")")-$(basename "$f")"
    done
    # The editor features' cases, one folder per feature (the checks' cases among them).
    for f in crates/*/test_data/*/*.s; do
        [ -f "$f" ] && cp "$f" "$dir/tdf-$(basename "$(dirname "$f")")-$(basename "$f")"
    done
    # The binary formats' cases (ROCm's LLVM 10 format, -S, ...) too.
    for f in crates/formats/tests/data/*/*.s; do
        [ -f "$f" ] && cp "$f" "$dir/fd-$(basename "$(dirname "$f")")-$(basename "$f")"
    done
    if [ -d "$conformance" ]; then
        python3 - "$conformance" "$dir" <<'PY'
import json, os, sys
conf, out = sys.argv[1:3]
with open(os.path.join(conf, 'modules.jsonl')) as f:
    for i, line in enumerate(f):
        m = json.loads(line)
        if m.get('src'):
            open(os.path.join(out, f'mod-{i}.s'), 'w').write(m['src'] + '\n')
groups = {}
with open(os.path.join(conf, 'instructions.jsonl')) as f:
    for line in f:
        m = json.loads(line)
        groups.setdefault(m['set'], []).append(m['src'])
for name, srcs in groups.items():
    for k in range(0, len(srcs), 40):
        open(os.path.join(out, f'ins-{name}-{k // 40}.s'), 'w').write('\n'.join(srcs[k:k + 40]) + '\n')
PY
    else
        echo "fuzz.sh: no conformance corpus at $conformance; seeding from test data only" >&2
    fi
}

mkdir -p fuzz/artifacts
for target in "${targets[@]}"; do
    corpus=fuzz/corpus/$target
    seed "$corpus"
    echo "fuzz.sh: $target for ${seconds}s on $(ls "$corpus" | wc -l) inputs" >&2
    # -timeout: an input that runs past the limits for this long is a hang. The
    # assembler's default limits allow 10,000,000 expanded statements (seconds in a
    # release build, more than a minute under the fuzzer's sanitizer), so its bound is
    # larger.
    timeout=60
    [ "$target" = assemble ] && timeout=600
    # -rss_limit_mb: the default limits allow 1 GiB of output.
    (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=4096 -max_len=65536 \
        -print_final_stats=1) 2>&1 | tee "fuzz/artifacts/$target.log" | grep -E '^(#[0-9]+ +DONE|==|SUMMARY|artifact_prefix|Test unit written|stat::number_of_executed_units)' || true
done
