// Builds the extension's .vsix with @vscode/vsce: `npm run package`.
//
//   npm run package                         # gcn-asm-VERSION.vsix, no server inside
//   GCN_LSP=/path/to/gcn-lsp npm run package  # gcn-asm-VERSION-PLATFORM.vsix with the
//                                             # server as server/gcn-lsp (for that platform)
//
// The grammar is copied from the repository's syntaxes/ first (vscode:prepublish).
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const root = path.join(__dirname, '..');
const pkg = require(path.join(root, 'package.json'));
const serverDir = path.join(root, 'server');
const exe = process.platform === 'win32' ? 'gcn-lsp.exe' : 'gcn-lsp';

fs.rmSync(serverDir, { recursive: true, force: true });
let target;
let out = `${pkg.name}-${pkg.version}.vsix`;
if (process.env.GCN_LSP) {
  const from = path.resolve(process.env.GCN_LSP);
  if (!fs.existsSync(from)) {
    console.error(`GCN_LSP=${process.env.GCN_LSP}: no such file`);
    process.exit(1);
  }
  fs.mkdirSync(serverDir, { recursive: true });
  fs.copyFileSync(from, path.join(serverDir, exe));
  fs.chmodSync(path.join(serverDir, exe), 0o755);
  const arch = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[process.arch] || process.arch;
  target = `${process.platform === 'win32' ? 'win32' : process.platform}-${arch}`;
  out = `${pkg.name}-${pkg.version}-${target}.vsix`;
}
const vsce = require.resolve('@vscode/vsce/vsce');
const args = [vsce, 'package', '--out', out, '--skip-license', '--allow-missing-repository',
  '--no-rewrite-relative-links'];
if (target) args.push('--target', target);
try {
  execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
} finally {
  fs.rmSync(serverDir, { recursive: true, force: true });
}
console.log(`built ${path.join(root, out)}`);
