// Which `apcheck` the extension runs, and when a settings change needs a new
// server. Pure (no `vscode` import), so the unit tests run under plain Node.
import * as path from 'node:path';

/** The settings the server is started with: its command and its initializationOptions. */
export interface ServerSettings {
  command: string;
  ruleDocs: string | undefined;
}

/** Where a platform package keeps the binary it bundles, inside the extension. */
export function bundledBinary(extensionPath: string, platform: NodeJS.Platform): string {
  return path.join(extensionPath, 'bin', platform === 'win32' ? 'apcheck.exe' : 'apcheck');
}

/**
 * The executable to run: an `apcheck.path` the user set wins; otherwise the
 * binary bundled with this platform's package; otherwise `apcheck` on PATH
 * (the package built without a binary, for a platform none is built for).
 * `configured` is the value the user set at some scope, `undefined` when
 * they set none; an empty or blank value counts as none.
 */
export function serverCommand(
  configured: string | undefined,
  extensionPath: string,
  platform: NodeJS.Platform,
  exists: (file: string) => boolean,
): string {
  const explicit = configured?.trim();
  if (explicit) {
    return explicit;
  }
  const bundled = bundledBinary(extensionPath, platform);
  return exists(bundled) ? bundled : 'apcheck';
}

/**
 * Whether a settings change needs the server started again. `apcheck lsp`
 * reads its options once, from `initialize` (it does not handle
 * `workspace/didChangeConfiguration`), so a new command or new options take
 * effect only in a new server; a change that resolves to what runs already
 * (say, `apcheck.path` set to the bundled binary's own path) keeps it.
 * `running` is `undefined` when no server runs (the last one failed to
 * start): any change is then worth another try.
 */
export function restartNeeded(running: ServerSettings | undefined, next: ServerSettings): boolean {
  return running === undefined || running.command !== next.command || running.ruleDocs !== next.ruleDocs;
}
