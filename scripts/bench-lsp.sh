#!/usr/bin/env bash
# Language-server latency on generated sources of 10,000 and 100,000 lines, beside
# gcnasm on the same text (see scripts/bench_lsp.py). Builds the release binaries first.
#   scripts/bench-lsp.sh [LINES...] [--edits N]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p gcn-lsp -p gcnasm
exec python3 scripts/bench_lsp.py target/release/gcn-lsp target/release/gcnasm "$@"
