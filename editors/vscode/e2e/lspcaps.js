// Asks gcn-lsp itself what it offers, the way the editor's client learns it: initialize
// (server capabilities), then whether it answers gcn/registerUsage. The e2e test uses this
// to tell "feature missing from the server" (skipped) from "feature broken" (failed).
'use strict';
const { spawn } = require('child_process');
const { pathToFileURL } = require('url');
const fs = require('fs');

function probe(serverPath, file, timeoutMs = 20000) {
  return new Promise((resolve, reject) => {
    const proc = spawn(serverPath, [], { stdio: ['pipe', 'pipe', 'ignore'] });
    let buf = Buffer.alloc(0);
    let id = 0;
    const pending = new Map();
    const timer = setTimeout(() => { proc.kill(); reject(new Error('gcn-lsp did not answer in time')); }, timeoutMs);
    const send = (msg) => {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...msg }));
      proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
      proc.stdin.write(body);
    };
    const request = (method, params) => new Promise((res) => {
      id += 1;
      pending.set(id, res);
      send({ id, method, params });
    });
    proc.stdout.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const sep = buf.indexOf('\r\n\r\n');
        if (sep < 0) return;
        const len = Number(/Content-Length: (\d+)/i.exec(buf.slice(0, sep).toString())[1]);
        if (buf.length < sep + 4 + len) return;
        const msg = JSON.parse(buf.slice(sep + 4, sep + 4 + len).toString());
        buf = buf.slice(sep + 4 + len);
        if (msg.id !== undefined && pending.has(msg.id) && msg.method === undefined) {
          pending.get(msg.id)(msg);
          pending.delete(msg.id);
        } else if (msg.id !== undefined && msg.method) {
          send({ id: msg.id, result: msg.method === 'workspace/configuration' ? [{}] : null });
        }
      }
    });
    proc.on('error', (e) => { clearTimeout(timer); reject(e); });
    (async () => {
      const uri = pathToFileURL(file).href;
      const init = await request('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
      send({ method: 'initialized', params: {} });
      send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'clrx', version: 1, text: fs.readFileSync(file, 'utf8') } } });
      const usage = await request('gcn/registerUsage', { textDocument: { uri } });
      const expansion = await request('gcn/expandMacro', { textDocument: { uri }, position: { line: 0, character: 0 } });
      const listing = await request('gcn/listing', { textDocument: { uri } });
      await request('shutdown', null);
      send({ method: 'exit' });
      clearTimeout(timer);
      const caps = (init.result && init.result.capabilities) || {};
      const sync = caps.textDocumentSync;
      resolve({
        caps,
        hover: Boolean(caps.hoverProvider),
        quickFix: Boolean(caps.codeActionProvider),
        definition: Boolean(caps.definitionProvider),
        inlayHints: Boolean(caps.inlayHintProvider),
        highlight: Boolean(caps.documentHighlightProvider),
        registerUsage: !usage.error,
        registerUsageError: usage.error && usage.error.message,
        expandMacro: !expansion.error,
        listing: !listing.error,
        assemble: ((caps.executeCommandProvider || {}).commands || []).includes('gcn.assemble'),
        onSave: Boolean(sync && typeof sync === 'object' && sync.save),
      });
    })().catch((e) => { clearTimeout(timer); proc.kill(); reject(e); });
  });
}

module.exports = { probe };
