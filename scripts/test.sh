#!/usr/bin/env bash
# The project's test command: installs what the tests need, then runs every test of the
# workspace (unit, snapshot, property, protocol and CLI tests, then doc tests).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-test-deps.sh
cargo test --doc --workspace --quiet
cargo nextest run --workspace --no-fail-fast
