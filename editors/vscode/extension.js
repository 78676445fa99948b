// CLRX GCN assembly for VS Code: starts gcn-lsp for `clrx` documents, passes the `gcn.*`
// settings to it (and again when they change, without a restart), shows the register
// usage of the kernel under the cursor in the status bar, and adds the commands
// Assemble File, Show Register Usage, Show Listing, Expand Macro at Cursor, Show Syntax
// Tree and Restart Server.
'use strict';

const vscode = require('vscode');
const { LanguageClient, State } = require('vscode-languageclient/node');
const core = require('./lib/core');

const INSTALL_HINT =
  'Build it with `cargo build --release -p gcn-lsp` in the gcn-tools repository and put ' +
  'target/release on PATH, or set "gcn.server.path" to the binary.';
// Read-only views of a source that follow its edits: the server's answer to METHOD for
// it, shown in a document of SCHEME.
const LIVE_VIEWS = {
  tree: { scheme: 'gcn-syntax-tree', suffix: '.tree', method: 'gcn/syntaxTree' },
  listing: { scheme: 'gcn-listing', suffix: '.listing', method: 'gcn/listing' },
};
const EXPANSION_SCHEME = 'gcn-expansion';
// The texts of the expansions shown, by their document's URI.
const expansions = new Map();

let client;
let extensionContext;
let output;
let statusItem;
let usageCache = new Map(); // uri -> { version, kernels }
let usageTimer;
let usageUnsupported = false;
const viewChanged = new vscode.EventEmitter();

function settingsGetter() {
  const config = vscode.workspace.getConfiguration('gcn');
  return (key) => config.get(key);
}

function serverSettings() {
  return core.serverSettings(settingsGetter());
}

function isClrx(doc) {
  return doc && doc.languageId === 'clrx' && (doc.uri.scheme === 'file' || doc.uri.scheme === 'untitled');
}

async function startClient() {
  const setting = vscode.workspace.getConfiguration('gcn').get('server.path');
  core.makeShippedExecutable(extensionContext.extensionPath);
  const found = core.findServer({ setting, extensionPath: extensionContext.extensionPath });
  if (found.error) {
    output.appendLine(found.error);
    const choice = await vscode.window.showErrorMessage(
      `CLRX: ${found.error}. ${INSTALL_HINT}`,
      'Open Settings',
    );
    if (choice === 'Open Settings') {
      vscode.commands.executeCommand('workbench.action.openSettings', 'gcn.server.path');
    }
    return;
  }
  output.appendLine(`starting ${found.command} (${found.source})`);
  const serverOptions = { command: found.command };
  const clientOptions = {
    documentSelector: [
      { language: 'clrx', scheme: 'file' },
      { language: 'clrx', scheme: 'untitled' },
    ],
    outputChannel: output,
    initializationOptions: serverSettings(),
    middleware: {
      workspace: {
        // The server may pull its settings: answer the `gcn` section in its own shape.
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          return params.items.map((item, i) =>
            item.section === 'gcn' ? serverSettings() : Array.isArray(answers) ? answers[i] : null,
          );
        },
      },
    },
  };
  client = new LanguageClient('gcn', 'gcn-lsp', serverOptions, clientOptions);
  client.onDidChangeState((e) => {
    if (e.newState === State.Running) {
      usageUnsupported = false;
      usageCache = new Map();
      scheduleUsage(0);
    } else if (e.newState === State.Stopped) {
      statusItem.hide();
    }
  });
  try {
    await client.start();
  } catch (err) {
    vscode.window.showErrorMessage(`CLRX: could not start gcn-lsp (${found.command}): ${err.message}`);
  }
}

async function stopClient() {
  if (client) {
    const c = client;
    client = undefined;
    try {
      await c.stop();
    } catch (err) {
      output.appendLine(`stopping gcn-lsp: ${err.message}`);
    }
  }
}

function running() {
  return client && client.state === State.Running;
}

function serverHas(capability) {
  const caps = running() && client.initializeResult ? client.initializeResult.capabilities : {};
  return Boolean(caps && caps[capability]);
}

// ---- register usage -----------------------------------------------------------------

async function fetchUsage(doc) {
  if (!running() || usageUnsupported || !isClrx(doc)) {
    return undefined;
  }
  const key = doc.uri.toString();
  const cached = usageCache.get(key);
  if (cached && cached.version === doc.version) {
    return cached;
  }
  try {
    const res = await client.sendRequest('gcn/registerUsage', {
      textDocument: { uri: client.code2ProtocolConverter.asUri(doc.uri) },
    });
    // The answer is for the version the server had (`res.version`): when the request
    // overtook the last edit, show it for now, keep it out of the cache and ask again,
    // or the counts of an older text would stay until the next edit.
    const version = res && typeof res.version === 'number' ? res.version : doc.version;
    const entry = { version, kernels: (res && res.kernels) || [] };
    if (version === doc.version) {
      usageCache.set(key, entry);
    } else {
      scheduleUsage(300);
    }
    return entry;
  } catch (err) {
    if (err && err.code === -32601) {
      // Method not found: this gcn-lsp has no register usage yet.
      usageUnsupported = true;
      output.appendLine('gcn-lsp does not answer gcn/registerUsage: no register counts');
    } else {
      output.appendLine(`gcn/registerUsage: ${err && err.message}`);
    }
    return undefined;
  }
}

function kernelLink(uri, k) {
  const args = encodeURIComponent(JSON.stringify([uri.toString(), k.range.start.line, k.range.start.character]));
  return `[${k.name}](command:gcn.revealPosition?${args})`;
}

async function updateUsage() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !isClrx(editor.document)) {
    statusItem.hide();
    return;
  }
  const usage = await fetchUsage(editor.document);
  if (!usage || vscode.window.activeTextEditor !== editor) {
    if (!usage) statusItem.hide();
    return;
  }
  const line = editor.selection.active.line;
  const k = core.kernelAt(usage.kernels, line);
  if (usage.kernels.length === 0) {
    statusItem.hide();
    return;
  }
  statusItem.text = k ? `$(chip) ${core.usageText(k)}` : `$(chip) ${usage.kernels.length} kernels`;
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: ['gcn.revealPosition'] };
  md.appendMarkdown(`**Register usage** (${k ? `cursor in \`${k.name}\`` : 'cursor before the first kernel'})\n\n`);
  for (const kk of usage.kernels) {
    const detail = core.usageDetail(kk);
    md.appendMarkdown(`- ${kernelLink(editor.document.uri, kk)}: ${core.usageText(kk)}${detail ? ` — ${detail}` : ''}\n`);
  }
  statusItem.tooltip = md;
  statusItem.show();
}

function scheduleUsage(delay) {
  clearTimeout(usageTimer);
  usageTimer = setTimeout(() => {
    updateUsage().catch((err) => output.appendLine(`register usage: ${err.message}`));
  }, delay);
}

// ---- commands -------------------------------------------------------------------------

function activeClrxEditor() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !isClrx(editor.document)) {
    vscode.window.showWarningMessage('CLRX: open a CLRX assembly file first.');
    return undefined;
  }
  if (!running()) {
    vscode.window.showWarningMessage('CLRX: gcn-lsp is not running.');
    return undefined;
  }
  return editor;
}

async function assembleFile() {
  const editor = activeClrxEditor();
  if (!editor) return;
  const cmds = (client.initializeResult.capabilities.executeCommandProvider || {}).commands || [];
  if (!cmds.includes('gcn.assemble')) {
    vscode.window.showErrorMessage('CLRX: this gcn-lsp cannot assemble (no gcn.assemble command); update it.');
    return;
  }
  try {
    const res = await client.sendRequest('workspace/executeCommand', {
      command: 'gcn.assemble',
      arguments: [client.code2ProtocolConverter.asUri(editor.document.uri)],
    });
    const out = res && res.output;
    const choice = await vscode.window.showInformationMessage(
      out ? `CLRX: assembled into ${out}` : 'CLRX: assembled',
      ...(out ? ['Reveal'] : []),
    );
    if (choice === 'Reveal') {
      vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(out));
    }
  } catch (err) {
    vscode.window.showErrorMessage(`CLRX: assembling failed: ${err.message}`);
  }
}

async function showRegisterUsage() {
  const editor = activeClrxEditor();
  if (!editor) return;
  if (usageUnsupported) {
    vscode.window.showErrorMessage('CLRX: this gcn-lsp does not report register usage (gcn/registerUsage); update it.');
    return;
  }
  const usage = await fetchUsage(editor.document);
  if (!usage) {
    vscode.window.showErrorMessage('CLRX: no register usage from gcn-lsp (see the gcn-lsp output).');
    return;
  }
  if (usage.kernels.length === 0) {
    vscode.window.showInformationMessage('CLRX: no kernels in this file.');
    return;
  }
  const items = usage.kernels.map((k) => ({
    label: k.name,
    description: core.usageText(k),
    detail: `line ${k.range.start.line + 1}` + (core.usageDetail(k) ? ` — ${core.usageDetail(k)}` : ''),
    kernel: k,
  }));
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Register usage',
    placeHolder: 'Go to a kernel',
    matchOnDescription: true,
  });
  if (pick) {
    revealPosition(editor.document.uri.toString(), pick.kernel.range.start.line, pick.kernel.range.start.character);
  }
}

async function revealPosition(uri, line, character) {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  const editor = await vscode.window.showTextDocument(doc);
  const pos = new vscode.Position(line, character || 0);
  editor.selection = new vscode.Selection(pos, pos);
  editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

function viewUri(view, sourceUri) {
  return vscode.Uri.from({
    scheme: view.scheme,
    path: sourceUri.path + view.suffix,
    query: encodeURIComponent(sourceUri.toString()),
  });
}

function viewProvider(view) {
  return {
    onDidChange: viewChanged.event,
    async provideTextDocumentContent(uri) {
      const source = vscode.Uri.parse(decodeURIComponent(uri.query));
      if (!running()) {
        return '# gcn-lsp is not running';
      }
      try {
        const answer = await client.sendRequest(view.method, {
          textDocument: { uri: client.code2ProtocolConverter.asUri(source) },
        });
        return core.viewText(answer);
      } catch (err) {
        return `# ${view.method} failed: ${err.message}`;
      }
    },
  };
}

async function showView(view) {
  const editor = activeClrxEditor();
  if (!editor) return;
  const doc = await vscode.workspace.openTextDocument(viewUri(view, editor.document.uri));
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
}

// The open views of a source that changed are asked again, after a pause in typing.
const viewTimers = new Map();
function refreshViews(sourceUri) {
  for (const view of Object.values(LIVE_VIEWS)) {
    const uri = viewUri(view, sourceUri);
    const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
    if (!open) continue;
    clearTimeout(viewTimers.get(uri.toString()));
    viewTimers.set(uri.toString(), setTimeout(() => viewChanged.fire(uri), 500));
  }
}

const expansionProvider = {
  provideTextDocumentContent(uri) {
    return expansions.get(uri.toString()) || '# this expansion is no longer available\n';
  },
};

// What the macro calls and repetitions on the cursor's line expand to, as the
// assembler ran them (gcn/expandMacro), in a read-only document beside the source.
async function expandMacro() {
  const editor = activeClrxEditor();
  if (!editor) return;
  const source = editor.document;
  const position = editor.selection.active;
  let expansion;
  try {
    expansion = await client.sendRequest('gcn/expandMacro', {
      textDocument: { uri: client.code2ProtocolConverter.asUri(source.uri) },
      position: { line: position.line, character: position.character },
    });
  } catch (err) {
    vscode.window.showErrorMessage(`CLRX: expanding failed: ${err.message}`);
    return;
  }
  if (!expansion) {
    vscode.window.showInformationMessage('CLRX: the assembler ran no macro call or repetition on this line.');
    return;
  }
  const text = core.expansionText(expansion, source.uri.path.split('/').pop(), source.getText(
    new vscode.Range(expansion.range.start.line, expansion.range.start.character,
      expansion.range.end.line, expansion.range.end.character)));
  const uri = vscode.Uri.from({
    scheme: EXPANSION_SCHEME,
    path: `${source.uri.path}.line${expansion.range.start.line + 1}.expansion.s`,
  });
  expansions.set(uri.toString(), text);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, 'clrx');
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
}

async function restartServer() {
  await stopClient();
  await startClient();
}

// ---- activation -----------------------------------------------------------------------

async function activate(context) {
  extensionContext = context;
  output = vscode.window.createOutputChannel('gcn-lsp');
  statusItem = vscode.window.createStatusBarItem('gcn.registerUsage', vscode.StatusBarAlignment.Right, 100);
  statusItem.name = 'CLRX Register Usage';
  statusItem.command = 'gcn.showRegisterUsage';
  context.subscriptions.push(
    output,
    statusItem,
    viewChanged,
    vscode.commands.registerCommand('gcn.assembleFile', assembleFile),
    vscode.commands.registerCommand('gcn.showRegisterUsage', showRegisterUsage),
    vscode.commands.registerCommand('gcn.showSyntaxTree', () => showView(LIVE_VIEWS.tree)),
    vscode.commands.registerCommand('gcn.showListing', () => showView(LIVE_VIEWS.listing)),
    vscode.commands.registerCommand('gcn.expandMacro', expandMacro),
    vscode.workspace.registerTextDocumentContentProvider(EXPANSION_SCHEME, expansionProvider),
    vscode.commands.registerCommand('gcn.restartServer', restartServer),
    vscode.commands.registerCommand('gcn.revealPosition', revealPosition),
    ...Object.values(LIVE_VIEWS).map((view) =>
      vscode.workspace.registerTextDocumentContentProvider(view.scheme, viewProvider(view))),
    vscode.window.onDidChangeActiveTextEditor(() => scheduleUsage(0)),
    vscode.window.onDidChangeTextEditorSelection((e) => {
      if (isClrx(e.textEditor.document)) scheduleUsage(50);
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!isClrx(e.document)) return;
      scheduleUsage(300);
      refreshViews(e.document.uri);
    }),
    vscode.workspace.onDidOpenTextDocument(claimClrx),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (isClrx(doc)) scheduleUsage(0);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration('gcn')) return;
      if (e.affectsConfiguration('gcn.server')) {
        await restartServer();
        return;
      }
      if (running()) {
        // Applied by the running server: no restart.
        client.sendNotification('workspace/didChangeConfiguration', { settings: { gcn: serverSettings() } });
        usageCache = new Map();
        scheduleUsage(500);
      }
    }),
    { dispose: () => stopClient() },
  );
  vscode.workspace.textDocuments.forEach(claimClrx);
  await startClient();
}

/**
 * A `.s`/`.S` file that another extension's language took (GNU as, x86, ARM…) becomes
 * `clrx` when its first lines are CLRX (`gcn.detectByContent`).
 */
function claimClrx(doc) {
  if (doc.languageId === 'clrx' || doc.uri.scheme !== 'file' || !/\.s$/i.test(doc.uri.path)) return;
  if (!vscode.workspace.getConfiguration('gcn').get('detectByContent')) return;
  // The user's own files.associations win.
  const assoc = vscode.workspace.getConfiguration('files').get('associations') || {};
  if (Object.values(assoc).includes(doc.languageId)) return;
  if (core.looksLikeClrx(doc.getText())) {
    vscode.languages.setTextDocumentLanguage(doc, 'clrx').then(undefined, () => {});
  }
}

async function deactivate() {
  await stopClient();
}

module.exports = { activate, deactivate };
