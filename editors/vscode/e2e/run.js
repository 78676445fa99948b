// End-to-end test of the packaged extension in a real VS Code: code-server (VS Code 1.100
// in the browser) driven headless by Chromium through playwright-core. It packages and
// installs the .vsix, opens a project (gcn.toml + kernel.s) and checks what a user sees.
//
//   GCN_LSP=/path/to/gcn-lsp node e2e/run.js [--screenshot FILE.png]
//
// Needs what scripts/install-test-deps.sh installs: Chromium (/usr/bin/chromium or
// $CHROMIUM), code-server in ${GCN_TOOLS_CACHE:-~/.cache/gcn-tools}/code-server (or
// $CODE_SERVER). Steps whose feature gcn-lsp does not offer yet (asked from the server
// itself: capabilities, a "method not found" answer) print SKIP, never ok;
// GCN_REQUIRE_FEATURES=1 turns those skips into failures. A failed step saves a screenshot
// in $GCN_E2E_ARTIFACTS (default target/vscode-e2e of the repository).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const net = require('net');
const { spawn, execFileSync } = require('child_process');
const { chromium } = require('playwright-core');
const { probe } = require('./lspcaps');
const { unknownTokenTypes } = require('./token-types');

const ext = path.join(__dirname, '..');
const repo = path.join(ext, '..', '..');
const fixture = path.join(repo, 'editors', 'nvim', 'test', 'fixture');
const cache = process.env.GCN_TOOLS_CACHE || path.join(os.homedir(), '.cache', 'gcn-tools');
const codeServer = process.env.CODE_SERVER || path.join(cache, 'code-server', 'node_modules', '.bin', 'code-server');
const chromePath = process.env.CHROMIUM || '/usr/bin/chromium';
const artifacts = process.env.GCN_E2E_ARTIFACTS || path.join(repo, 'target', 'vscode-e2e');
const requireAll = process.env.GCN_REQUIRE_FEATURES === '1';
const shotArg = process.argv.indexOf('--screenshot');
const docShot = shotArg > 0 ? path.resolve(process.argv[shotArg + 1]) : undefined;
const WAIT = 45000;

let failures = 0;
let skips = 0;
let page;
const t0 = Date.now();
const log = (s) => console.log(`${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s ${s}`);

async function shot(name) {
  if (!page) return;
  fs.mkdirSync(artifacts, { recursive: true });
  const file = path.join(artifacts, `${name.replace(/[^\w.-]+/g, '_').slice(0, 60)}.png`);
  await page.screenshot({ path: file }).catch(() => {});
  log(`     screenshot: ${file}`);
}

/** Runs a step: ok, FAIL (with a screenshot), or SKIP when `lacks` names a missing feature. */
async function step(name, fn, lacks) {
  if (lacks) {
    if (requireAll) {
      failures += 1;
      log(`FAIL ${name} (server lacks ${lacks}; GCN_REQUIRE_FEATURES=1)`);
    } else {
      skips += 1;
      log(`SKIP ${name} (server lacks ${lacks})`);
    }
    return;
  }
  try {
    const detail = await fn();
    log(`ok   ${name}${detail ? `: ${detail}` : ''}`);
  } catch (err) {
    failures += 1;
    log(`FAIL ${name}: ${String(err && err.message).split('\n')[0]}`);
    await shot(name);
  }
}

function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function until(fn, what, ms = WAIT) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e.message;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? ` (last: ${last})` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

// ---- editor helpers ----------------------------------------------------------------------

async function command(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10000 });
  await page.keyboard.press('Enter');
}

async function gotoLine(n) {
  await page.keyboard.press('Control+g');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill(`:${n}`);
  await page.keyboard.press('Enter');
  await until(async () => (await cursorLine()) === n, `cursor on line ${n}`, 10000);
}

/** Puts the cursor on line `n`, column `c` (both from 1). */
async function gotoPosition(n, c) {
  await page.keyboard.press('Control+g');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill(`:${n}:${c}`);
  await page.keyboard.press('Enter');
  await until(async () => (await cursorLine()) === n, `cursor on line ${n}`, 10000);
}

/** Types `text` on a new line after line `n` (the editor indents it like line `n`). */
async function insertAfter(n, text) {
  await gotoLine(n);
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(text);
}

async function cursorLine() {
  const text = await page.locator('.statusbar-item[id="status.editor.selection"]').innerText();
  const m = /Ln (\d+)/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The span of the first token with exactly `text` on the visible lines. */
function token(text) {
  return page.locator('.monaco-editor .view-lines .view-line span span', { hasText: new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }).first();
}

async function colorOf(loc) {
  return loc.evaluate((el) => getComputedStyle(el).color, null, { timeout: 3000 });
}

function lineOf(file, re) {
  return fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => re.test(l)) + 1;
}

// ---- the test ----------------------------------------------------------------------------

async function main() {
  const server = process.env.GCN_LSP;
  if (!server || !fs.existsSync(server)) throw new Error('set GCN_LSP to a gcn-lsp binary');
  for (const [what, p] of [['code-server', codeServer], ['Chromium', chromePath]]) {
    if (!fs.existsSync(p)) throw new Error(`${what} not found at ${p}: run scripts/install-test-deps.sh`);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gcn-vscode-e2e-'));
  const ws = path.join(tmp, 'project');
  const userData = path.join(tmp, 'user-data');
  const extDir = path.join(tmp, 'extensions');
  fs.cpSync(fixture, ws, { recursive: true });
  fs.rmSync(path.join(ws, 'gnu.s'));
  const kernel = path.join(ws, 'kernel.s');
  const bin = path.join(ws, 'build', 'kernel.bin');

  const has = await probe(server, kernel);
  log(`gcn-lsp offers: hover=${has.hover} definition=${has.definition} inlayHints=${has.inlayHints} registerUsage=${has.registerUsage} ` +
    `gcn.assemble=${has.assemble} on-save=${has.onSave} expandMacro=${has.expandMacro} listing=${has.listing}`);
  await step('VS Code knows every token type of the server\'s legend', async () => {
    const legend = ((has.caps.semanticTokensProvider || {}).legend || {}).tokenTypes || [];
    const unknown = unknownTokenTypes(legend, require(path.join(ext, 'package.json')));
    if (unknown.length > 0) throw new Error(`not standard, not in package.json: ${unknown.join(', ')}`);
    return legend.join(', ');
  });

  // The .vsix, built by the npm script a user or CI runs, installed as a user does: with
  // the server inside (server/gcn-lsp), or (GCN_E2E_SERVER=setting) without, gcn-lsp given
  // by the gcn.server.path setting.
  const bundled = process.env.GCN_E2E_SERVER !== 'setting';
  execFileSync(process.execPath, [path.join(ext, 'scripts', 'package.js')], {
    cwd: ext, stdio: 'ignore', env: { ...process.env, GCN_LSP: bundled ? server : '' },
  });
  const pkg = require(path.join(ext, 'package.json'));
  const arch = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[process.arch] || process.arch;
  const vsix = path.join(ext, `${pkg.name}-${pkg.version}${bundled ? `-${process.platform}-${arch}` : ''}.vsix`);
  execFileSync(codeServer, ['--extensions-dir', extDir, '--user-data-dir', userData, '--install-extension', vsix], { stdio: 'ignore' });
  log(`installed ${path.basename(vsix)}`);

  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({
    ...(bundled ? {} : { 'gcn.server.path': server }),
    'workbench.startupEditor': 'none',
    'workbench.colorTheme': 'Default Dark Modern',
    'workbench.tips.enabled': false,
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'editor.quickSuggestions': { other: false, comments: false, strings: false },
    'editor.suggestOnTriggerCharacters': false,
    'editor.acceptSuggestionOnEnter': 'off',
    'editor.autoClosingBrackets': 'never',
    'editor.hover.delay': 200,
    'editor.minimap.enabled': false,
    'files.autoSave': 'off',
    'extensions.ignoreRecommendations': true,
    'update.mode': 'none',
  }, null, 2));

  const port = await freePort();
  const cs = spawn(codeServer, ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--user-data-dir', userData,
    '--extensions-dir', extDir, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', ws], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let csLog = '';
  cs.stdout.on('data', (d) => { csLog += d; });
  cs.stderr.on('data', (d) => { csLog += d; });
  let browser;
  try {
    await until(() => new Promise((r) => {
      const s = net.connect(port, '127.0.0.1', () => { s.end(); r(true); });
      s.on('error', () => r(false));
    }), 'code-server to listen', 60000);
    browser = await chromium.launch({
      executablePath: chromePath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);

    await step('open kernel.s from the explorer', async () => {
      const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'kernel.s' });
      await row.waitFor({ timeout: 90000 });
      await row.click();
      await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: WAIT });
      await token('s_load_dwordx2').waitFor({ timeout: WAIT });
    });

    const serverExe = bundled ? path.join(extDir, `gcn-tools.${pkg.name}-${pkg.version}`, 'server', 'gcn-lsp') : server;
    const serverPids = () => execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n')
      .map((l) => l.trim().split(/\s+/)).filter(([, a0]) => a0 === serverExe).map(([pid]) => pid);
    await step(bundled ? 'the server runs from the extension (server/gcn-lsp)' : 'the server runs from gcn.server.path', async () => {
      const pids = await until(() => serverPids().length > 0 && serverPids(), `a process ${serverExe}`);
      return `${serverExe} (pid ${pids.join(', ')})`;
    });
    await step('language mode is CLRX GCN Assembly', async () => until(async () => {
      const t = await page.locator('.statusbar-item[id="status.editor.mode"]').innerText();
      return t.includes('CLRX GCN Assembly') && t;
    }, 'language mode'));

    // The colour of the first token of each kind on the visible lines: its text, and the
    // text of its line.
    const coloursNow = () => page.evaluate((want) => {
      const out = {};
      for (const line of document.querySelectorAll('.monaco-editor .view-lines .view-line')) {
        const lineText = line.textContent.replace(/\u00a0/g, ' ');
        for (const el of line.querySelectorAll('span span')) {
          const t = el.textContent.replace(/\u00a0/g, ' ').trim();
          for (const [k, [re, lineRe]] of Object.entries(want)) {
            if (!(k in out) && new RegExp(re).test(t) && new RegExp(lineRe).test(lineText)) out[k] = getComputedStyle(el).color;
          }
        }
      }
      return out;
    }, { instruction: ['^s_load_dwordx2$', ''], register: ['^s6$', ''], pseudoOp: ['^\\.gallium$', ''],
      kernel: ['^scale$', '\\.kernel'], label: ['^scale:?$', '^scale:'], symbol: ['^FACTOR$', '^FACTOR'],
      symbolUse: ['^FACTOR$', 'v_mul_lo_u32'], comment: ['^# Two small kernels', ''], plain: ['^Tonga$', ''] });
    const c = {};
    await step('colours: instructions, registers, pseudo-ops, kernels, labels, symbols and comments', async () => {
      await until(async () => {
        Object.assign(c, await coloursNow());
        const kinds = ['instruction', 'register', 'pseudoOp', 'kernel', 'label', 'symbol', 'comment'];
        const missing = kinds.concat('plain', 'symbolUse').filter((k) => !c[k]);
        if (missing.length > 0) throw new Error(`no token for ${missing.join(', ')}`);
        // Every kind stands apart from plain text (a name that is no symbol, `.gpu Tonga`,
        // is plain), registers from instructions; and once the server's tokens are drawn, a
        // symbol where it is used looks as where it is defined (the grammar cannot tell).
        const apart = kinds.every((k) => c[k] !== c.plain) && c.register !== c.instruction && c.label !== c.symbol;
        if (apart && c.symbolUse !== c.symbol) throw new Error(`not yet the server's colours: ${JSON.stringify(c)}`);
        if (!apart) throw new Error(JSON.stringify(c));
        return true;
      }, 'distinct colours', 20000);
      return Object.entries(c).map(([k, v]) => `${k} ${v}`).join(', ');
    });

    // The server has started once diagnostics or the register usage can show: give it a
    // moment on this slow machine, then type a bad instruction at the end of kernel scale.
    const endpgm = lineOf(kernel, /^\s+s_endpgm/);
    const bad = endpgm + 1;
    await step('error squiggle after typing a bad instruction', async () => {
      await insertAfter(endpgm, 'v_mov_b32 v1, (1+');
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: WAIT });
    });
    await step('the error is listed in the Problems panel', async () => {
      await page.keyboard.press('Control+Shift+M');
      const row = page.locator('.markers-panel .monaco-list-row').first();
      await row.waitFor({ timeout: WAIT });
      const text = await page.locator('.markers-panel').innerText();
      if (!/kernel\.s/.test(text) || !new RegExp(`\\[Ln ${bad},`).test(text)) throw new Error(`Problems: ${text.slice(0, 200)}`);
      return text.split('\n').slice(0, 3).join(' | ');
    });
    if (docShot) {
      // A picture for the README: colours, the error squiggle and the Problems panel.
      await page.waitForTimeout(1000);
      fs.mkdirSync(path.dirname(docShot), { recursive: true });
      await page.screenshot({ path: docShot });
      log(`screenshot for the docs: ${docShot}`);
    }
    await step('deleting the line clears the error', async () => {
      await gotoLine(bad);
      await page.keyboard.press('Control+Shift+K');
      await until(async () => (await page.locator('.monaco-editor .squiggly-error').count()) === 0, 'no squiggle');
    });

    await step('a misspelled mnemonic: Ctrl+. offers the fix, Enter applies it', async () => {
      await insertAfter(endpgm, 's_mov_b33 s0, s1');
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: WAIT });
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Control+.');
      const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Change to `s_mov_b32`' }).first();
      await fix.waitFor({ timeout: WAIT });
      await page.keyboard.press('Enter');
      await token('s_mov_b32').waitFor({ timeout: WAIT });
      await until(async () => (await page.locator('.monaco-editor .squiggly-error').count()) === 0, 'no squiggle after the fix');
      await page.keyboard.press('Control+Shift+K');
    }, has.quickFix ? undefined : 'codeActionProvider');

    await step('a register read while its load is in flight: warning, and Ctrl+. inserts the s_waitcnt', async () => {
      await insertAfter(endpgm, 's_load_dword s7, s[0:1], 0x8');
      await page.keyboard.press('Enter');
      await page.keyboard.type('s_add_u32 s8, s7, 1');
      await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: WAIT });
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Control+.');
      const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Insert `s_waitcnt lgkmcnt(0)`' }).first();
      await fix.waitFor({ timeout: WAIT });
      await page.keyboard.press('Enter');
      // (The kernel's own waits are written with more spaces.)
      await page.locator('.view-line', { hasText: 's_waitcnt lgkmcnt(0)' }).first().waitFor({ timeout: WAIT });
      await until(async () => (await page.locator('.monaco-editor .squiggly-warning').count()) === 0, 'no warning after the fix');
      // The three lines go: the load, the wait, the use.
      await gotoLine(endpgm + 1);
      for (let i = 0; i < 3; i += 1) await page.keyboard.press('Control+Shift+K');
      await until(async () => (await page.locator('.view-line', { hasText: 's_add_u32 s8, s7, 1' }).count()) === 0, 'the lines removed');
    }, has.quickFix ? undefined : 'codeActionProvider');

    await step('a branch the assembler does not take is drawn faded', async () => {
      await insertAfter(endpgm, '.ifarch GCN1.4');
      await page.keyboard.press('Enter');
      await page.keyboard.type('v_nop');
      await page.keyboard.press('Enter');
      await page.keyboard.type('.endif');
      await page.locator('.monaco-editor .squiggly-inline-unnecessary').first().waitFor({ timeout: WAIT });
      await gotoLine(endpgm + 1);
      for (let i = 0; i < 3; i += 1) await page.keyboard.press('Control+Shift+K');
      await until(async () => (await page.locator('.monaco-editor .squiggly-inline-unnecessary').count()) === 0, 'no faded line once the lines go');
    });

    await step('hover on an instruction shows its description', async () => {
      await token('v_mul_lo_u32').hover();
      const hover = page.locator('.monaco-hover-content', { hasText: 'v_mul_lo_u32' }).first();
      await hover.waitFor({ timeout: WAIT });
      return (await hover.innerText()).split('\n')[0];
    }, has.hover ? undefined : 'hoverProvider');
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');

    const def = lineOf(kernel, /^loop:/);
    await step('go to definition moves the cursor to the label', async () => {
      const use = lineOf(kernel, /s_cbranch_scc0\s+loop/);
      await gotoLine(use);
      await page.keyboard.press('End');
      await page.keyboard.press('Control+ArrowLeft');
      await page.keyboard.press('F12');
      await until(async () => (await cursorLine()) === def, `cursor on line ${def}`);
    }, has.definition ? undefined : 'definitionProvider');

    await step('highlight on a register: the load writes s6, the multiply reads it', async () => {
      const load = lineOf(kernel, /s_load_dword\s+s6/);
      const column = fs.readFileSync(kernel, 'utf8').split('\n')[load - 1].indexOf('s6') + 2;
      await gotoPosition(load, column);
      const count = (cls) => page.locator(`.view-overlays .${cls}`).count();
      await until(async () => (await count('wordHighlightStrong')) === 1 && (await count('wordHighlight')) === 1,
        'one write and one read highlighted');
      return `${await count('wordHighlightStrong')} write, ${await count('wordHighlight')} read`;
    }, has.highlight ? undefined : 'documentHighlightProvider');

    const inLast = lineOf(kernel, /v_add_u32\s+v3, vcc, 7, v3/);
    const usageItem = page.locator('footer .statusbar-item', { hasText: /VGPR \d+/ }).first();
    await step('register counts at the kernel label (inlay hint)', async () => {
      await gotoLine(lineOf(kernel, /^scale:/));
      // The hint is text of the label's line (spaces drawn as no-break spaces).
      return until(() => page.evaluate(() => {
        for (const line of document.querySelectorAll('.monaco-editor .view-line')) {
          const t = line.textContent.replace(/\u00a0/g, ' ').trim();
          if (/^scale:\s*SGPR \d+ · VGPR \d+ · \d+ waves?$/.test(t)) return t;
        }
        return false;
      }), 'an inlay hint with the counts after scale:');
    }, has.inlayHints ? undefined : 'inlayHintProvider');
    await step('status bar shows the register usage of the kernel under the cursor', async () => {
      // In the last kernel: whichever line the server gives as a kernel's start (its label
      // or its .kernel pseudo-op), the kernel starting last before the cursor is this one.
      await gotoLine(inLast);
      await usageItem.waitFor({ timeout: WAIT });
      return usageItem.innerText();
    }, has.registerUsage ? undefined : `gcn/registerUsage (${has.registerUsageError})`);
    await step('status bar counts change when a higher VGPR is written', async () => {
      const before = await usageItem.innerText();
      await insertAfter(inLast, 'v_mov_b32 v40, v3');
      // v40 used: at least 41 VGPRs (the server may round up to its allocation granule).
      const vgprs = (t) => Number((/VGPR (\d+)/.exec(t) || [])[1]);
      await until(async () => vgprs(await usageItem.innerText()) >= 41, 'VGPR 41 or more in the status bar');
      return `${before.trim()} -> ${(await usageItem.innerText()).trim()}`;
    }, has.registerUsage ? undefined : 'gcn/registerUsage');

    // After the edits (typed, deleted and inserted lines), every register, instruction and
    // use of the label `loop` shown has its colour: the server's token deltas were applied
    // where they belong (the grammar alone leaves the label's use plain).
    await step('colours follow the edits', async () => until(async () => {
      const { checked, wrong } = await page.evaluate((want) => {
        const out = { checked: 0, wrong: [] };
        for (const el of document.querySelectorAll('.monaco-editor .view-lines .view-line span span')) {
          const t = el.textContent.replace(/\u00a0/g, ' ').trim();
          const kind = /^[sv]\d+$/.test(t) ? 'register' : /^[sv]_[a-z0-9_]+$/.test(t) ? 'instruction'
            : t === 'loop' && /s_cbranch/.test(el.parentElement.textContent) ? 'label' : undefined;
          if (!kind) continue;
          out.checked += 1;
          const colour = getComputedStyle(el).color;
          if (colour !== want[kind]) out.wrong.push(`${t} ${colour}`);
        }
        return out;
      }, { register: c.register, instruction: c.instruction, label: c.label });
      if (checked < 10 || wrong.length > 0) throw new Error(`${checked} checked, wrong: ${wrong.slice(0, 5).join(', ')}`);
      return `${checked} registers, instructions and label uses`;
    }, 'registers, instructions and label uses in their colours'));

    await step('the status bar tooltip lists every kernel', async () => {
      await usageItem.hover();
      const tip = page.locator('.monaco-hover-content, .workbench-hover', { hasText: 'offsetby' }).first();
      await tip.waitFor({ timeout: WAIT });
      const text = await tip.innerText();
      if (!/scale/.test(text)) throw new Error(`tooltip: ${text}`);
      await page.mouse.move(700, 300);
      return text.replace(/\s+/g, ' ').slice(0, 120);
    }, has.registerUsage ? undefined : 'gcn/registerUsage');
    await step('CLRX: Show Register Usage jumps to the kernel picked', async () => {
      await command('CLRX: Show Register Usage');
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'offsetby' }).first();
      await row.waitFor({ timeout: WAIT });
      await page.keyboard.type('offsetby');
      await page.keyboard.press('Enter');
      // The kernel's label or its .kernel pseudo-op, whichever the server calls its start.
      const want = [lineOf(kernel, /^offsetby:/), lineOf(kernel, /^\.kernel offsetby/)];
      await until(async () => want.includes(await cursorLine()), `cursor on line ${want.join(' or ')}`);
    }, has.registerUsage ? undefined : 'gcn/registerUsage');

    await step('saving writes build/kernel.bin (gcn.toml [on-save])', async () => {
      fs.rmSync(bin, { force: true });
      await page.keyboard.press('Control+s');
      await until(() => fs.existsSync(bin) && fs.statSync(bin).size > 0, 'build/kernel.bin');
      return `${fs.statSync(bin).size} bytes`;
    }, has.onSave ? undefined : 'textDocumentSync.save (on-save output)');

    await step('CLRX: Assemble File writes build/kernel.bin', async () => {
      fs.rmSync(bin, { force: true });
      await command('CLRX: Assemble File');
      await until(() => fs.existsSync(bin), 'build/kernel.bin');
    }, has.assemble ? undefined : 'executeCommand gcn.assemble');

    await step('a changed setting applies without a restart (gcn.args -D)', async () => {
      // A line that fails only when E2E_FLAG is defined; the setting defines it.
      await insertAfter(1, '.ifdef E2E_FLAG; .error "E2E_FLAG is set"; .endif');
      await page.waitForTimeout(1500);
      if ((await page.locator('.monaco-editor .squiggly-error').count()) > 0) throw new Error('an error before the setting');
      fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
      const settingsFile = path.join(ws, '.vscode', 'settings.json');
      fs.writeFileSync(settingsFile, JSON.stringify({ 'gcn.args': ['-D', 'E2E_FLAG'] }));
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: WAIT });
      await until(async () => /E2E_FLAG is set/.test(await page.locator('.markers-panel').innerText()),
        'the error "E2E_FLAG is set" in the Problems panel');
      fs.writeFileSync(settingsFile, '{}');
      await until(async () => (await page.locator('.monaco-editor .squiggly-error').count()) === 0, 'the error gone with the setting');
      await gotoLine(2);
      await page.keyboard.press('Control+Shift+K');
    });

    await step('CLRX: Restart Server starts a new server, which answers', async () => {
      const before = serverPids();
      await command('CLRX: Restart Server');
      await until(() => {
        const now = serverPids();
        return now.length > 0 && now.every((p) => !before.includes(p));
      }, 'a new server process');
      await insertAfter(lineOf(kernel, /^\s+s_endpgm/), 'v_mov_b32 v1, (1+');
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: WAIT });
      await page.keyboard.press('Control+Shift+K');
      await until(async () => (await page.locator('.monaco-editor .squiggly-error').count()) === 0, 'no squiggle');
      return `pid ${before.join(',')} -> ${serverPids().join(',')}`;
    });

    await step('CLRX: Show Syntax Tree opens the tree beside', async () => {
      await command('CLRX: Show Syntax Tree');
      const tab = page.locator('.tabs-container .tab', { hasText: 'kernel.s.tree' });
      await tab.waitFor({ timeout: WAIT });
      await until(async () => (await page.locator('.view-line', { hasText: /^SOURCE_FILE@0\.\./ }).count()) > 0 ||
        (await page.locator('.view-line', { hasText: /@0\.\.\d+/ }).count()) > 0, 'tree text');
    });

    await step('CLRX: Expand Macro at Cursor shows what `zero v1` expands to', async () => {
      const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'multi.s' });
      await row.click();
      await page.locator('.tabs-container .tab', { hasText: 'multi.s' }).first().waitFor({ timeout: WAIT });
      await token('STRIDE').waitFor({ timeout: WAIT });
      await gotoPosition(11, 10);
      await command('CLRX: Expand Macro at Cursor');
      await page.locator('.tabs-container .tab', { hasText: 'multi.s.line11.expansion.s' }).waitFor({ timeout: WAIT });
      await until(async () => (await page.locator('.view-line', { hasText: 'v_mov_b32 v1, 0' }).count()) > 0 &&
        (await page.locator('.view-line', { hasText: '# zero v1 (multi.s:11) expands to:' }).count()) > 0,
      'the expansion text');
    }, has.expandMacro ? undefined : 'gcn/expandMacro');

    await step('CLRX: Show Listing shows each instruction of multi.s with its words', async () => {
      await command('CLRX: Show Listing');
      await page.locator('.tabs-container .tab', { hasText: 'multi.s.listing' }).waitFor({ timeout: WAIT });
      // `zero v1` from inc/helpers.s: v_mov_b32 v1, 0 is 7e020280 on GCN 1.2.
      await until(async () => (await page.locator('.view-line', { hasText: '7e020280' }).count()) > 0 &&
        (await page.locator('.view-line', { hasText: 'inc/helpers.s:' }).count()) > 0,
      'the listing text');
    }, has.listing ? undefined : 'gcn/listing');

  } finally {
    if (browser) await browser.close().catch(() => {});
    try { process.kill(-cs.pid, 'SIGTERM'); } catch { /* gone */ }
    if (failures > 0) {
      fs.mkdirSync(artifacts, { recursive: true });
      fs.writeFileSync(path.join(artifacts, 'code-server.log'), csLog);
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A user without gcn-lsp: the .vsix without a server inside, no setting, nothing on PATH.
 * The extension must say what is missing and how to install it.
 */
async function missingServer() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gcn-vscode-e2e-missing-'));
  const ws = path.join(tmp, 'project');
  const userData = path.join(tmp, 'user-data');
  const extDir = path.join(tmp, 'extensions');
  fs.mkdirSync(ws);
  fs.copyFileSync(path.join(fixture, 'kernel.s'), path.join(ws, 'kernel.s'));
  execFileSync(process.execPath, [path.join(ext, 'scripts', 'package.js')], {
    cwd: ext, stdio: 'ignore', env: { ...process.env, GCN_LSP: '' },
  });
  const pkg = require(path.join(ext, 'package.json'));
  execFileSync(codeServer, ['--extensions-dir', extDir, '--user-data-dir', userData, '--install-extension',
    path.join(ext, `${pkg.name}-${pkg.version}.vsix`)], { stdio: 'ignore' });
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none', 'security.workspace.trust.enabled': false, 'telemetry.telemetryLevel': 'off',
  }));
  const noServerPath = (process.env.PATH || '').split(path.delimiter)
    .filter((d) => d && !fs.existsSync(path.join(d, 'gcn-lsp'))).join(path.delimiter);
  const port = await freePort();
  const cs = spawn(codeServer, ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--user-data-dir', userData,
    '--extensions-dir', extDir, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', ws], { detached: true, stdio: 'ignore', env: { ...process.env, PATH: noServerPath } });
  let browser;
  try {
    await until(() => new Promise((r) => {
      const sock = net.connect(port, '127.0.0.1', () => { sock.end(); r(true); });
      sock.on('error', () => r(false));
    }), 'code-server to listen', 60000);
    browser = await chromium.launch({
      executablePath: chromePath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
    await step('without gcn-lsp: a message says it is missing and how to install it', async () => {
      const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'kernel.s' });
      await row.waitFor({ timeout: 90000 });
      await row.click();
      const toast = page.locator('.notification-toast', { hasText: 'gcn-lsp not found' }).first();
      await toast.waitFor({ timeout: WAIT });
      const text = (await toast.innerText()).replace(/\s+/g, ' ');
      if (!/cargo build --release -p gcn-lsp/.test(text) || !/gcn\.server\.path/.test(text) || !/Open Settings/.test(text)) {
        throw new Error(`message: ${text}`);
      }
      return text.slice(0, 160);
    });
  } finally {
    if (browser) await browser.close().catch(() => {});
    try { process.kill(-cs.pid, 'SIGTERM'); } catch { /* gone */ }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(() => (process.env.GCN_E2E_SERVER === 'setting' ? undefined : missingServer())).then(() => {
  log(`VS Code e2e: ${failures} failed, ${skips} skipped`);
  process.exit(failures > 0 ? 1 : 0);
}, (err) => {
  log(`VS Code e2e: error: ${err.stack || err}`);
  process.exit(1);
});
