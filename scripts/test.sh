#!/usr/bin/env bash
# The project's test command: installs what the tests need, then runs every test:
# the workspace's unit, snapshot, property, protocol and CLI tests and doc tests, then
# the editor tests (gcn-lsp in headless Neovim, the VS Code grammar).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-test-deps.sh
cargo test --doc --workspace --quiet
cargo nextest run --workspace --no-fail-fast
editors/nvim/test/run.sh
npm test --prefix editors/vscode --silent
