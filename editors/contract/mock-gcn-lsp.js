#!/usr/bin/env node
// A STAND-IN for the parts of gcn-lsp's protocol that the server does not have yet, so that
// the editor front ends can be tested against the contract today. NOT the server: it
// forwards everything to the real gcn-lsp ($GCN_LSP_REAL) and adds, with crude answers
// computed from the text:
//   - gcn/registerUsage (highest s/v register per kernel; waves = min(10, 256 / VGPRs)),
//   - hover (the word under the cursor), definition (a `word:` label line),
//   - workspace/executeCommand gcn.assemble and didSave: write a placeholder file at the
//     on-save output (settings' onSave.output, else gcn.toml's [on-save] output),
//   - the matching capabilities.
// Whatever the real server does offer (its capabilities; gcn/registerUsage unless it answers
// "method not found") goes to it: the stand-ins only fill the gaps.
// Used by `editors/contract/run.sh`; the real-editor tests run against it as well as
// against the real server, so the front ends' side of each feature is exercised before the
// server's side exists.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { fileURLToPath } = require('url');

const real = spawn(process.env.GCN_LSP_REAL, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const docs = new Map(); // uri -> text
let settings = {};
let realCaps = {};
const fallbacks = new Map(); // request id -> stand-in answer if the server lacks the method
const realHas = {
  hover: () => Boolean(realCaps.hoverProvider),
  definition: () => Boolean(realCaps.definitionProvider),
  assemble: () => ((realCaps.executeCommandProvider || {}).commands || []).includes('gcn.assemble'),
  save: () => Boolean(realCaps.textDocumentSync && typeof realCaps.textDocumentSync === 'object' && realCaps.textDocumentSync.save),
};

function reader(stream, onMessage) {
  let buf = Buffer.alloc(0);
  stream.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      const sep = buf.indexOf('\r\n\r\n');
      if (sep < 0) return;
      const len = Number(/Content-Length: (\d+)/i.exec(buf.slice(0, sep).toString())[1]);
      if (buf.length < sep + 4 + len) return;
      const msg = JSON.parse(buf.slice(sep + 4, sep + 4 + len).toString());
      buf = buf.slice(sep + 4 + len);
      onMessage(msg);
    }
  });
}
function write(stream, msg) {
  const body = Buffer.from(JSON.stringify(msg));
  stream.write(`Content-Length: ${body.length}\r\n\r\n`);
  stream.write(body);
}
const toClient = (msg) => write(process.stdout, { jsonrpc: '2.0', ...msg });
const toServer = (msg) => write(real.stdin, { jsonrpc: '2.0', ...msg });

function offsetOf(text, pos) {
  let off = 0;
  for (let l = 0; l < pos.line; l += 1) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return text.length;
    off = nl + 1;
  }
  return off + pos.character;
}
function applyChanges(text, changes) {
  for (const c of changes) {
    if (!c.range) text = c.text;
    else text = text.slice(0, offsetOf(text, c.range.start)) + c.text + text.slice(offsetOf(text, c.range.end));
  }
  return text;
}
function wordAt(text, pos) {
  const line = text.split('\n')[pos.line] || '';
  const re = /[A-Za-z_.$][\w.$]*/g;
  let m;
  while ((m = re.exec(line))) {
    if (m.index <= pos.character && pos.character <= m.index + m[0].length) return m[0];
  }
  return undefined;
}

function registerUsage(text) {
  const lines = text.split('\n');
  const names = new Set();
  for (const l of lines) {
    const m = /^\s*\.kernel\s+([\w.$]+)/.exec(l);
    if (m) names.add(m[1]);
  }
  const kernels = [];
  let cur;
  lines.forEach((l, i) => {
    const m = /^([\w.$]+):/.exec(l);
    if (m && names.has(m[1])) {
      cur = { name: m[1], range: { start: { line: i, character: 0 }, end: { line: i, character: m[1].length } }, s: -1, v: -1 };
      kernels.push(cur);
    }
    if (!cur) return;
    const code = l.replace(/#.*/, '');
    for (const r of code.matchAll(/\b([sv])(?:(\d+)|\[(\d+):(\d+)\])/g)) {
      const hi = Number(r[2] !== undefined ? r[2] : r[4]);
      if (r[1] === 's') cur.s = Math.max(cur.s, hi);
      else cur.v = Math.max(cur.v, hi);
    }
  });
  return kernels.map((k) => {
    const vgprs = k.v + 1;
    const sgprs = k.s + 1;
    return { name: k.name, range: k.range, sgprs, vgprs, extra_sgprs: 2, sgprsnum: sgprs + 2, vgprsnum: vgprs,
      waves: Math.max(1, Math.min(10, Math.floor(256 / Math.max(vgprs, 1)))) };
  });
}

function outputFor(uri) {
  const file = fileURLToPath(uri);
  let pattern = settings.onSave && settings.onSave.output;
  let base = path.dirname(file);
  if (!pattern) {
    for (let d = path.dirname(file); ; d = path.dirname(d)) {
      const toml = path.join(d, 'gcn.toml');
      if (fs.existsSync(toml)) {
        const m = /\[on-save\][^[]*?output\s*=\s*"([^"]+)"/.exec(fs.readFileSync(toml, 'utf8'));
        if (m) { pattern = m[1]; base = d; }
        break;
      }
      if (path.dirname(d) === d) break;
    }
  }
  if (!pattern) return undefined;
  return path.resolve(base, pattern.replace('{stem}', path.basename(file).replace(/\.[^.]*$/, '')));
}
function assemble(uri) {
  const out = outputFor(uri);
  if (!out) throw new Error('no on-save output configured');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `placeholder from mock-gcn-lsp.js for ${uri}\n`);
  return out;
}

reader(process.stdin, (msg) => {
  const p = msg.params || {};
  switch (msg.method) {
    case 'exit':
      // The server is to exit now; end its input so that it does even if it waits for more.
      toServer(msg);
      real.stdin.end();
      setTimeout(() => { real.kill(); process.exit(0); }, 500).unref();
      return;
    case 'initialize':
      settings = p.initializationOptions || {};
      break;
    case 'workspace/didChangeConfiguration':
      settings = (p.settings && p.settings.gcn) || settings;
      break;
    case 'textDocument/didOpen':
      docs.set(p.textDocument.uri, p.textDocument.text);
      break;
    case 'textDocument/didChange':
      docs.set(p.textDocument.uri, applyChanges(docs.get(p.textDocument.uri) || '', p.contentChanges));
      break;
    case 'textDocument/didSave':
      if (realHas.save()) break;
      try { assemble(p.textDocument.uri); } catch { /* nothing configured */ }
      return;
    case 'gcn/registerUsage':
      fallbacks.set(msg.id, () => ({ version: 0, kernels: registerUsage(docs.get(p.textDocument.uri) || '') }));
      break;
    case 'textDocument/hover': {
      if (realHas.hover()) break;
      const w = wordAt(docs.get(p.textDocument.uri) || '', p.position);
      toClient({ id: msg.id, result: w ? { contents: { kind: 'markdown', value: `\`${w}\` (mock hover)` } } : null });
      return;
    }
    case 'textDocument/definition': {
      if (realHas.definition()) break;
      const text = docs.get(p.textDocument.uri) || '';
      const w = wordAt(text, p.position);
      const i = w ? text.split('\n').findIndex((l) => l.startsWith(`${w}:`)) : -1;
      toClient({ id: msg.id, result: i < 0 ? null : { uri: p.textDocument.uri, range: { start: { line: i, character: 0 }, end: { line: i, character: w.length } } } });
      return;
    }
    case 'workspace/executeCommand':
      if (p.command === 'gcn.assemble' && !realHas.assemble()) {
        try {
          toClient({ id: msg.id, result: { output: assemble(p.arguments[0]) } });
        } catch (e) {
          toClient({ id: msg.id, error: { code: -32603, message: e.message } });
        }
        return;
      }
      break;
    default:
  }
  toServer(msg);
});

reader(real.stdout, (msg) => {
  if (msg.id !== undefined && fallbacks.has(msg.id) && msg.method === undefined) {
    const stand = fallbacks.get(msg.id);
    fallbacks.delete(msg.id);
    if (msg.error && msg.error.code === -32601) {
      toClient({ id: msg.id, result: stand() });
      return;
    }
  }
  if (msg.result && msg.result.capabilities) {
    const c = msg.result.capabilities;
    realCaps = JSON.parse(JSON.stringify(c));
    c.hoverProvider = true;
    c.definitionProvider = true;
    c.executeCommandProvider = { commands: ['gcn.assemble'] };
    if (typeof c.textDocumentSync === 'number') c.textDocumentSync = { openClose: true, change: c.textDocumentSync };
    c.textDocumentSync = { ...(c.textDocumentSync || {}), save: { includeText: false } };
  }
  toClient(msg);
});
real.on('exit', (code) => process.exit(code || 0));
// The editor went away (stdin closed): take the real server down too.
process.stdin.on('end', () => {
  real.stdin.end();
  setTimeout(() => { real.kill(); process.exit(0); }, 1000).unref();
});
