// The parts of the extension that need no VS Code API, so that `npm test` can check them
// with plain Node: the server's settings object, finding the gcn-lsp binary, and the
// register-usage text of the status bar.
'use strict';

const fs = require('fs');
const path = require('path');

/**
 * The settings object gcn-lsp reads (initializationOptions, didChangeConfiguration's
 * `settings.gcn`, and the `gcn` section of workspace/configuration), from a getter of
 * VS Code settings (`get(key)` of `workspace.getConfiguration('gcn')`). Unset or empty
 * values are left out, so that a `gcn.toml` project file decides them.
 */
function serverSettings(get) {
  const out = {};
  const args = get('args');
  if (Array.isArray(args) && args.length > 0) {
    out.args = args.map(String);
  }
  const output = get('onSave.output');
  if (typeof output === 'string' && output.trim() !== '') {
    out.onSave = { output: output.trim() };
  }
  const delay = get('diagnosticsDelay');
  if (typeof delay === 'number' && Number.isFinite(delay) && delay >= 0) {
    out.diagnosticsDelay = Math.round(delay);
  }
  for (const check of ['waitcnt', 'nops', 'uninitialized']) {
    if (get(`checks.${check}`) === false) {
      out.checks = { ...out.checks, [check]: false };
    }
  }
  return out;
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `name` looked up on PATH (with PATHEXT on Windows), or undefined. */
function onPath(name, env = process.env) {
  const dirs = (env.PATH || '').split(path.delimiter).filter(Boolean);
  const exts = process.platform === 'win32' ? (env.PATHEXT || '.EXE').split(';') : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const file = path.join(dir, name + ext);
      if (isExecutable(file)) {
        return file;
      }
    }
  }
  return undefined;
}

/**
 * Which gcn-lsp to run: `{ command, source }`, or `{ error }` saying what was tried.
 * Order: the `gcn.server.path` setting when set (a path, or a name looked up on PATH),
 * then the binary shipped in the extension (`server/gcn-lsp`), then `gcn-lsp` on PATH.
 */
function findServer({ setting, extensionPath, env = process.env }) {
  const exe = process.platform === 'win32' ? 'gcn-lsp.exe' : 'gcn-lsp';
  const tried = [];
  if (typeof setting === 'string' && setting.trim() !== '') {
    const s = setting.trim().replace(/^~(?=$|\/)/, env.HOME || '~');
    if (s.includes('/') || s.includes('\\')) {
      if (isExecutable(s)) {
        return { command: s, source: 'setting gcn.server.path' };
      }
      return { error: `gcn.server.path is "${setting}", which is not an executable file` };
    }
    const found = onPath(s, env);
    if (found) {
      return { command: found, source: 'setting gcn.server.path (on PATH)' };
    }
    return { error: `gcn.server.path is "${setting}", which is not on PATH` };
  }
  if (extensionPath) {
    const bundled = path.join(extensionPath, 'server', exe);
    if (isExecutable(bundled)) {
      return { command: bundled, source: 'shipped with the extension' };
    }
    tried.push(`no ${path.join('server', exe)} in the extension`);
  }
  const found = onPath('gcn-lsp', env);
  if (found) {
    return { command: found, source: 'PATH' };
  }
  tried.push('no gcn-lsp on PATH');
  return { error: `gcn-lsp not found (${tried.join(', ')})` };
}

// Pseudo-ops only CLRX sources use (a binary format, the GPU, kernels and their
// configuration), `.arch GCN…`, or `s_endpgm`: the same markers as Neovim's detection.
const CLRX_MARKERS = /^\s*\.(?:amdcl2|amd|gallium|rocm|rawcode|gpu|kernel|kcode|hsaconfig|config|cws|sgprsnum|vgprsnum|driver_version|llvm_version|64bit|32bit|get_gpu|ifarch|ifgpu)(?![\w.$])|^\s*\.arch\s+gcn|(?:^|[\s:;])s_endpgm(?![\w.$])/im;

/** Whether the first `lines` lines of `text` look like a CLRX source. */
function looksLikeClrx(text, lines = 50) {
  return CLRX_MARKERS.test(text.split('\n', lines).join('\n'));
}

/** Gives the shipped server its execute bit back if the .vsix install dropped it. */
function makeShippedExecutable(extensionPath) {
  const file = path.join(extensionPath, 'server', process.platform === 'win32' ? 'gcn-lsp.exe' : 'gcn-lsp');
  try {
    if (fs.statSync(file).isFile() && !isExecutable(file) && process.platform !== 'win32') {
      fs.chmodSync(file, 0o755);
    }
  } catch {
    // no shipped server
  }
}

/** The kernel of `kernels` whose range starts last at or before `line`, or undefined. */
function kernelAt(kernels, line) {
  let best;
  for (const k of kernels || []) {
    const start = k.range && k.range.start ? k.range.start.line : -1;
    if (start <= line && (!best || start >= best.range.start.line)) {
      best = k;
    }
  }
  return best;
}

/**
 * `SGPR 16 · VGPR 24 · 10 waves` for a kernel of gcn/registerUsage: the server's own `label`
 * when it gives one (the text of its inlay hints), else made from the counts.
 */
function usageText(k) {
  if (typeof k.label === 'string' && k.label !== '') {
    return k.label;
  }
  const parts = [`SGPR ${k.sgprs}`, `VGPR ${k.vgprs}`];
  if (typeof k.waves === 'number') {
    parts.push(`${k.waves} ${k.waves === 1 ? 'wave' : 'waves'}`);
  }
  return parts.join(' · ');
}

/** A longer line for a tooltip or a quick pick: allocated counts and extra SGPRs too. */
function usageDetail(k) {
  const bits = [];
  if (typeof k.sgprsnum === 'number') {
    bits.push(`${k.sgprsnum} SGPRs allocated` + (k.extra_sgprs ? ` (${k.extra_sgprs} extra)` : ''));
  }
  if (typeof k.vgprsnum === 'number') {
    bits.push(`${k.vgprsnum} VGPRs allocated`);
  }
  return bits.join(', ');
}

// The text of an expansion's document (gcn/expandMacro's answer): a comment naming
// what was expanded and where, then the statements the assembler ran.
function expansionText(expansion, fileName, callText) {
  const line = expansion.range.start.line + 1;
  return `# ${callText.trim()} (${fileName}:${line}) expands to:\n${expansion.text}`;
}

// The text of a live view from the server's answer: gcn/syntaxTree answers a string,
// gcn/listing an object with its text.
function viewText(answer) {
  if (typeof answer === 'string') return answer;
  if (answer && typeof answer.text === 'string') return answer.text;
  return JSON.stringify(answer, null, 2);
}

module.exports = {
  looksLikeClrx, serverSettings, findServer, onPath, makeShippedExecutable, kernelAt, usageText, usageDetail,
  expansionText, viewText,
};
