#!/usr/bin/env bash
# The project's test command: installs what the tests need, then runs every test:
# the workspace's unit, snapshot, property, protocol and CLI tests and doc tests, then
# the editor tests (the Neovim plugin in headless Neovim, the VS Code extension: grammar and
# logic tests, then end to end in code-server driven by Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-test-deps.sh
cargo test --doc --workspace --quiet
cargo nextest run --workspace --no-fail-fast
editors/nvim/test/run.sh
npm test --prefix editors/vscode --silent
# The VS Code extension in a real VS Code (code-server + headless Chromium), a few minutes.
editors/vscode/e2e/run.sh
# Both editor tests again against editors/contract/mock-gcn-lsp.js (the real server plus
# stand-ins for the protocol parts it lacks yet), so the front ends' side of register
# usage, hover, definition, assembling and on-save is tested before the server has them.
target_dir="$(cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
GCN_LSP="$target_dir/debug/gcn-lsp" editors/contract/run.sh
