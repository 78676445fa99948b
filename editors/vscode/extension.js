// Starts gcn-lsp for CLRX GCN assembly files and connects it to VS Code.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

async function activate(context) {
  const config = vscode.workspace.getConfiguration('gcn');
  const command = config.get('server.path') || 'gcn-lsp';
  const serverOptions = { run: { command }, debug: { command } };
  const clientOptions = {
    documentSelector: [{ language: 'clrx' }],
    outputChannelName: 'gcn-lsp',
  };
  client = new LanguageClient('gcn', 'gcn-lsp', serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.commands.registerCommand('gcn.restartServer', async () => {
      if (client) {
        await client.restart();
      }
    }),
  );
  try {
    await client.start();
  } catch (err) {
    vscode.window.showErrorMessage(
      `Could not start gcn-lsp (${command}): ${err.message}. Set "gcn.server.path".`,
    );
  }
}

async function deactivate() {
  if (client) {
    await client.stop();
  }
}

module.exports = { activate, deactivate };
