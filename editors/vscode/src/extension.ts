// Starts `apcheck lsp` for the files apcheck checks, and stops it with the window.
import { workspace, type ExtensionContext } from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const settings = workspace.getConfiguration('apcheck');
  const command = settings.get<string>('path', 'apcheck');
  // TransportKind.stdio adds `--stdio`, which `apcheck lsp` accepts.
  const server: ServerOptions = { command, args: ['lsp'], transport: TransportKind.stdio };
  const options: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', pattern: '**/plugin.json' },
      { scheme: 'file', pattern: '**/mcp.json' },
      { scheme: 'file', pattern: '**/skills/*/SKILL.md' },
    ],
    initializationOptions: { ruleDocs: settings.get<string>('ruleDocs') },
  };
  client = new LanguageClient('apcheck', 'apcheck', server, options);
  context.subscriptions.push(client);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
