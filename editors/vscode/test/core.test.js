// The extension's logic that needs no VS Code: settings sent to gcn-lsp, finding the
// server binary, the kernel under the cursor and the status bar text.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const core = require('../lib/core');

test('server settings: set values only, in the server shape', () => {
  const vals = { args: ['-g', 'Tonga'], 'onSave.output': 'build/{stem}.bin', diagnosticsDelay: 120 };
  assert.deepStrictEqual(core.serverSettings((k) => vals[k]), {
    args: ['-g', 'Tonga'],
    onSave: { output: 'build/{stem}.bin' },
    diagnosticsDelay: 120,
  });
  const unset = {
    args: [], 'onSave.output': '', diagnosticsDelay: null, 'checks.waitcnt': true, 'checks.nops': true,
    'checks.uninitialized': true,
  };
  assert.deepStrictEqual(core.serverSettings((k) => unset[k]), {});
  assert.deepStrictEqual(core.serverSettings((k) => ({ 'checks.waitcnt': false })[k]), {
    checks: { waitcnt: false },
  });
  assert.deepStrictEqual(
    core.serverSettings((k) => ({ 'checks.waitcnt': false, 'checks.nops': false })[k]),
    { checks: { waitcnt: false, nops: false } },
  );
  assert.deepStrictEqual(core.serverSettings((k) => ({ 'checks.uninitialized': false })[k]), {
    checks: { uninitialized: false },
  });
});

test('finding gcn-lsp: setting, then shipped binary, then PATH', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gcn-find-'));
  const ext = path.join(dir, 'ext');
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(path.join(ext, 'server'), { recursive: true });
  fs.mkdirSync(bin);
  const mk = (f) => { fs.writeFileSync(f, '#!/bin/sh\n'); fs.chmodSync(f, 0o755); return f; };
  const env = { PATH: bin, HOME: dir };
  let r = core.findServer({ setting: '', extensionPath: ext, env });
  assert.match(r.error, /not found.*server\/gcn-lsp.*PATH/);
  const onPath = mk(path.join(bin, 'gcn-lsp'));
  assert.deepStrictEqual(core.findServer({ setting: '', extensionPath: ext, env }), { command: onPath, source: 'PATH' });
  const shipped = mk(path.join(ext, 'server', 'gcn-lsp'));
  assert.strictEqual(core.findServer({ setting: '', extensionPath: ext, env }).command, shipped);
  const mine = mk(path.join(dir, 'my-lsp'));
  assert.strictEqual(core.findServer({ setting: mine, extensionPath: ext, env }).command, mine);
  assert.strictEqual(core.findServer({ setting: '~/my-lsp', extensionPath: ext, env }).command, mine);
  assert.match(core.findServer({ setting: '/nope/gcn-lsp', extensionPath: ext, env }).error, /not an executable/);
  assert.strictEqual(core.findServer({ setting: 'gcn-lsp', extensionPath: ext, env }).command, onPath);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('kernel under the cursor: the one starting last at or before the line', () => {
  const k = (name, line) => ({ name, range: { start: { line, character: 0 }, end: { line, character: 5 } } });
  const kernels = [k('b', 30), k('a', 10)];
  assert.strictEqual(core.kernelAt(kernels, 5), undefined);
  assert.strictEqual(core.kernelAt(kernels, 10).name, 'a');
  assert.strictEqual(core.kernelAt(kernels, 29).name, 'a');
  assert.strictEqual(core.kernelAt(kernels, 30).name, 'b');
  assert.strictEqual(core.kernelAt(kernels, 1000).name, 'b');
});

test('status bar text', () => {
  const k = { name: 'a', sgprs: 16, vgprs: 24, extra_sgprs: 2, sgprsnum: 18, vgprsnum: 24, waves: 10 };
  assert.strictEqual(core.usageText(k), 'SGPR 16 · VGPR 24 · 10 waves');
  assert.strictEqual(core.usageDetail(k), '18 SGPRs allocated (2 extra), 24 VGPRs allocated');
  assert.strictEqual(core.usageText({ ...k, waves: 1 }), 'SGPR 16 · VGPR 24 · 1 wave');
  assert.strictEqual(core.usageText({ ...k, label: 'SGPR 18 · VGPR 24 · 10 waves' }), 'SGPR 18 · VGPR 24 · 10 waves');
});

test('CLRX sources are told from other assembly by their first lines', () => {
  assert.ok(core.looksLikeClrx('# k\n.gallium\n.gpu Tonga\n'));
  assert.ok(core.looksLikeClrx('.AMDCL2\n'));
  assert.ok(core.looksLikeClrx('  .arch GCN1.4\n'));
  assert.ok(core.looksLikeClrx('start: s_endpgm\n'));
  assert.ok(!core.looksLikeClrx('\t.text\n\t.globl main\nmain:\n\tret\n'));
  assert.ok(!core.looksLikeClrx('.arch armv7-a\n.amdgcn_target "x"\n'));
  assert.ok(!core.looksLikeClrx(`${'nop\n'.repeat(60)}.gallium\n`));
});

test('expansionText names the call and its line before the statements', () => {
  const expansion = {
    range: { start: { line: 8, character: 8 }, end: { line: 8, character: 15 } },
    parts: ['macro `bump`'],
    text: '        v_add_u32 v5, vcc, 1, v5\n',
  };
  assert.strictEqual(
    core.expansionText(expansion, 'kernel.s', ' bump v5 '),
    '# bump v5 (kernel.s:9) expands to:\n        v_add_u32 v5, vcc, 1, v5\n',
  );
});

test('viewText takes the tree as it is and the listing\'s text', () => {
  assert.strictEqual(core.viewText('SOURCE_FILE@0..4\n'), 'SOURCE_FILE@0..4\n');
  assert.strictEqual(
    core.viewText({ version: 3, text: '.text+0x0  bf810000  k.s:2: s_endpgm\n', errors: false }),
    '.text+0x0  bf810000  k.s:2: s_endpgm\n',
  );
  assert.strictEqual(core.viewText({ other: 1 }), '{\n  "other": 1\n}');
});
