// Builds the platform package (.vsix) of the extension for one VS Code target,
// with an apcheck binary for that platform in bin/, so the extension works
// with nothing else installed:
//
//   node scripts/package.mjs --binary ../../target/release/apcheck [--target linux-x64] [--out FILE]
//
// The target defaults to this machine's, the output to
// apcheck-vscode-TARGET-VERSION.vsix here (vsce's own name). The licence texts are copied from the
// repository root, so there is one copy of each in the repository. vsce runs
// `vscode:prepublish` (the type-check and bundle) and never prompts: a warning
// it would ask about (no repository, no licence, ...) fails the build instead.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const extension = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(extension, '../..');

// The targets `vsce package --target` knows, but `web`: apcheck lsp is a native process.
const targets = [
  'win32-x64',
  'win32-arm64',
  'linux-x64',
  'linux-arm64',
  'linux-armhf',
  'alpine-x64',
  'alpine-arm64',
  'darwin-x64',
  'darwin-arm64',
];

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    binary: { type: 'string' },
    target: { type: 'string', default: `${process.platform}-${process.arch}` },
    out: { type: 'string' },
  },
});
if (values.binary === undefined) {
  fail('--binary PATH is required: the apcheck executable built for the target');
}
if (!targets.includes(values.target)) {
  fail(`unknown --target ${values.target}: one of ${targets.join(', ')}`);
}

// A package built before for another target must not leave its binary behind.
const bin = join(extension, 'bin');
rmSync(bin, { recursive: true, force: true });
mkdirSync(bin);
// The name src/server.ts looks for (bundledBinary).
const name = values.target.startsWith('win32-') ? 'apcheck.exe' : 'apcheck';
copyFileSync(resolve(values.binary), join(bin, name));
chmodSync(join(bin, name), 0o755);
for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) {
  copyFileSync(join(root, licence), join(extension, licence));
}

const manifest = JSON.parse(readFileSync(join(extension, 'package.json'), 'utf8'));
const out = resolve(values.out ?? join(extension, `${manifest.name}-${values.target}-${manifest.version}.vsix`));
mkdirSync(dirname(out), { recursive: true });
// --no-dependencies: dist/extension.js is a bundle with every dependency in it.
const args = ['package', '--target', values.target, '--no-dependencies', '--out', out];
const vsce = spawnSync(join(extension, 'node_modules/.bin/vsce'), args, {
  cwd: extension,
  // stdin closed: nothing may wait on an answer to a prompt.
  stdio: ['ignore', 'pipe', 'pipe'],
  encoding: 'utf8',
});
process.stdout.write(vsce.stdout ?? '');
process.stderr.write(vsce.stderr ?? '');
if (vsce.error !== undefined) {
  fail(`vsce: ${vsce.error.message}`);
}
if (vsce.status !== 0) {
  fail(`vsce package exited with ${vsce.status}`);
}
// Without a terminal vsce goes on past a warning and writes the package.
if (/\bWARNING\b/.test(vsce.stdout + vsce.stderr)) {
  rmSync(out, { force: true });
  fail('vsce warned (above): a package to ship has no warnings');
}
