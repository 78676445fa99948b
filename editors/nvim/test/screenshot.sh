#!/usr/bin/env bash
# Takes docs/images/nvim.png: the gcn.nvim plugin in a real Neovim in tmux (a kernel, an
# error after an edit, the statusline), the terminal turned into a picture with Chromium.
#   GCN_LSP=/path/to/gcn-lsp editors/nvim/test/screenshot.sh [OUT.png]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
plugin="$(cd "$here/.." && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:-$root/docs/images/nvim.png}"
: "${GCN_LSP:?set GCN_LSP to a gcn-lsp binary}"
work="$(mktemp -d)"
session="gcnshot$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT
cp -r "$here/fixture/." "$work/"
cat > "$work/init.lua" <<LUA
vim.opt.runtimepath:prepend('$plugin')
vim.o.termguicolors = true
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.laststatus = 2
vim.o.statusline = ' %f %m%= %{v:lua.require("gcn").statusline()}   %l:%c '
vim.diagnostic.config({ virtual_text = true })
require('gcn').setup({ cmd = { '$GCN_LSP' } })
LUA
cd "$work"
tmux new-session -d -s "$session" -x 100 -y 30 "nvim --clean -u init.lua kernel.s"
sleep 2
line=$(grep -n 's_endpgm' kernel.s | head -1 | cut -d: -f1)
tmux send-keys -t "$session" "${line}G" "o" "v_mov_b32 v1, (1+" Escape
tmux send-keys -t "$session" "$((line - 6))G" "zz"
sleep 2
tmux capture-pane -t "$session" -e -p > "$work/screen.ansi"
python3 "$here/ansi2html.py" '#e0e2ea' '#14161b' < "$work/screen.ansi" > "$work/screen.html"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=940,660 \
  --screenshot="$out" "file://$work/screen.html" 2>/dev/null
echo "wrote $out"
