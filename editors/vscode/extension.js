// A thin VS Code extension for docgate (docs/editors.md): it starts `docgate lsp` for the workspace and
// hands it Markdown and plain-text files (POWER templates are .txt); everything else is the server's.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration('docgate').get('command');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  client = new LanguageClient(
    'docgate',
    'docgate',
    { command, args, options: { cwd: folder } },
    {
      documentSelector: [
        { scheme: 'file', language: 'markdown' },
        { scheme: 'file', language: 'plaintext' },
      ],
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/{docgate.config.{yaml,yml,json},schemas/**,*.md,*.txt}') },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
