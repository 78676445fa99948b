#!/usr/bin/env bash
# The VS Code end-to-end test (see run.js): builds gcn-lsp (debug) unless GCN_LSP is given,
# then packages the extension, installs it into code-server and drives it with Chromium.
#   editors/vscode/e2e/run.sh [--screenshot FILE.png]
#   GCN_REQUIRE_FEATURES=1 editors/vscode/e2e/run.sh   # server features that are missing fail
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
if [ -z "${GCN_LSP:-}" ]; then
  cargo build --quiet --manifest-path "$root/Cargo.toml" -p gcn-lsp
  target="$(cargo metadata --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
  export GCN_LSP="$target/debug/gcn-lsp"
fi
exec timeout 600 node "$here/run.js" "$@"
