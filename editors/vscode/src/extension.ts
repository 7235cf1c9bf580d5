// Starts `apcheck lsp` for the files apcheck checks, starts it again when the
// `apcheck` settings change, and stops it with the window.
import { existsSync } from 'node:fs';
import { window, workspace, type ExtensionContext, type LogOutputChannel } from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { restartNeeded, serverCommand, type ServerSettings } from './server';

let client: LanguageClient | undefined;
/** What the running server was started with; `undefined` while none runs. */
let running: ServerSettings | undefined;
/** Starts and stops, one at a time in the order they were asked for. */
let queue: Promise<void> = Promise.resolve();
let outputChannel: LogOutputChannel | undefined;

/** Runs `task` after the ones queued before it, whether they failed or not. */
function enqueue(task: () => Promise<void>): Promise<void> {
  queue = queue.then(task).catch((error: unknown) => {
    outputChannel?.error(`apcheck: ${error instanceof Error ? error.message : String(error)}`);
  });
  return queue;
}

function currentSettings(extensionPath: string): ServerSettings {
  const settings = workspace.getConfiguration('apcheck');
  return {
    command: serverCommand(settings.get<string>('path'), extensionPath, process.platform, existsSync),
    ruleDocs: settings.get<string>('ruleDocs'),
  };
}

async function start(settings: ServerSettings): Promise<void> {
  // TransportKind.stdio adds `--stdio`, which `apcheck lsp` accepts.
  const server: ServerOptions = { command: settings.command, args: ['lsp'], transport: TransportKind.stdio };
  const options: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', pattern: '**/plugin.json' },
      { scheme: 'file', pattern: '**/mcp.json' },
      { scheme: 'file', pattern: '**/skills/*/SKILL.md' },
    ],
    initializationOptions: { ruleDocs: settings.ruleDocs },
    // One channel for every server this window starts, not one per restart.
    outputChannel,
  };
  client = new LanguageClient('apcheck', 'apcheck', server, options);
  try {
    await client.start();
    running = settings;
  } catch {
    // The client has shown the error (say, no such executable) with a link to
    // its output; the next settings change tries again.
  }
}

async function stop(): Promise<void> {
  const stopping = client;
  client = undefined;
  running = undefined;
  // A client whose start failed has nothing to stop (and `stop` would throw).
  if (stopping?.isRunning()) {
    await stopping.stop();
  }
}

export function activate(context: ExtensionContext): Promise<void> {
  outputChannel = window.createOutputChannel('apcheck', { log: true });
  context.subscriptions.push(outputChannel);
  context.subscriptions.push(
    workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('apcheck')) {
        return;
      }
      void enqueue(async () => {
        const next = currentSettings(context.extensionPath);
        if (restartNeeded(running, next)) {
          await stop();
          await start(next);
        }
      });
    }),
  );
  return enqueue(() => start(currentSettings(context.extensionPath)));
}

export function deactivate(): Promise<void> {
  return enqueue(stop);
}
