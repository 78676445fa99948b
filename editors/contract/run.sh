#!/usr/bin/env bash
# The editor tests (Neovim plugin, VS Code e2e) against mock-gcn-lsp.js: the real gcn-lsp
# plus stand-ins for the protocol parts it does not have yet (register usage, hover,
# definition, gcn.assemble, on-save). Checks the front ends' side of those features now;
# the real-server runs (scripts/test.sh) keep reporting them as skipped until the server
# has them. Rename and completion have no stand-in and stay skipped here.
#   GCN_LSP=/path/to/gcn-lsp editors/contract/run.sh [nvim|vscode|all]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
: "${GCN_LSP:?set GCN_LSP to the real gcn-lsp}"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
printf '#!/usr/bin/env bash\nexec -a "$0" node %q "$@"\n' "$here/mock-gcn-lsp.js" > "$bin/gcn-lsp"
chmod +x "$bin/gcn-lsp"
export GCN_LSP_REAL="$GCN_LSP" GCN_LSP="$bin/gcn-lsp" GCN_E2E_SERVER=setting
what="${1:-all}"
if [ "$what" = all ] || [ "$what" = nvim ]; then
  "$root/editors/nvim/test/run.sh"
fi
if [ "$what" = all ] || [ "$what" = vscode ]; then
  "$root/editors/vscode/e2e/run.sh"
fi
