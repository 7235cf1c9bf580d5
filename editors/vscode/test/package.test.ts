// The platform package as a user installs it: scripts/package.mjs with the
// Rust CLI (APCHECK_BIN, default target/debug/apcheck, which `cargo test`
// builds) for this machine's target, then the .vsix read as the zip it is:
// exactly the files that run and the licences, a bundle that needs no
// node_modules, and a bundled binary that keeps its executable bit, is found
// where the extension looks, and runs.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { serverCommand } from '../src/server';

// This file runs bundled, from dist-test/.
const extension = path.resolve(__dirname, '..');
const root = path.resolve(extension, '../..');
const binary = process.env.APCHECK_BIN ?? path.join(root, 'target/debug/apcheck');
const target = `${process.platform}-${process.arch}`;
const binaryName = process.platform === 'win32' ? 'apcheck.exe' : 'apcheck';

interface Entry {
  /** The Unix mode, from the upper half of the external attributes. */
  mode: number;
  data: Buffer;
}

/** A zip's files by name, from its central directory (stored or deflated: what vsce writes). */
function readZip(zip: Buffer): Map<string, Entry> {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) {
    end -= 1;
  }
  assert.ok(end >= 0, 'no end of central directory: not a zip');
  const entries = new Map<string, Entry>();
  let at = zip.readUInt32LE(end + 16);
  for (let count = zip.readUInt16LE(end + 10); count > 0; count -= 1) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    assert.ok(method === 0 || method === 8, `${name}: compression method ${method}`);
    entries.set(name, { mode: zip.readUInt32LE(at + 38) >>> 16, data: method === 8 ? inflateRawSync(raw) : raw });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

let work: string;
let entries: Map<string, Entry>;

before(() => {
  assert.ok(existsSync(binary), `the Rust CLI is missing at ${binary} (cargo build)`);
  work = mkdtempSync(path.join(tmpdir(), 'apcheck-vsix-'));
  const vsix = path.join(work, 'apcheck.vsix');
  const script = path.join(extension, 'scripts/package.mjs');
  const packaged = spawnSync(process.execPath, [script, '--binary', binary, '--target', target, '--out', vsix], {
    encoding: 'utf8',
  });
  assert.equal(packaged.status, 0, `package.mjs failed:\n${packaged.stdout}\n${packaged.stderr}`);
  entries = readZip(readFileSync(vsix));
});

after(() => rmSync(work, { recursive: true, force: true }));

test('the package holds what runs, the marketplace page and the licences, nothing else', () => {
  assert.deepEqual([...entries.keys()].sort(), [
    '[Content_Types].xml',
    'extension.vsixmanifest',
    'extension/LICENSE-APACHE',
    'extension/LICENSE-MIT',
    'extension/LICENSE.txt',
    `extension/bin/${binaryName}`,
    'extension/dist/extension.js',
    'extension/package.json',
    'extension/readme.md',
  ]);
});

test("the licence texts are the repository's", () => {
  for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) {
    assert.deepEqual(entries.get(`extension/${licence}`)?.data, readFileSync(path.join(root, licence)), licence);
  }
  assert.deepEqual(entries.get('extension/LICENSE.txt')?.data, readFileSync(path.join(extension, 'LICENSE')));
});

test('the manifest names the target platform and the repository', () => {
  const manifest = entries.get('extension.vsixmanifest')?.data.toString('utf8') ?? '';
  assert.match(manifest, new RegExp(`TargetPlatform="${target}"`));
  const packageJson = JSON.parse(entries.get('extension/package.json')?.data.toString('utf8') ?? '{}');
  assert.equal(packageJson.repository?.url, 'https://github.com/OWNER/apcheck.git');
});

test('the bundle needs nothing but VS Code and Node', () => {
  const bundle = entries.get('extension/dist/extension.js')?.data.toString('utf8') ?? '';
  const required = new Set([...bundle.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]));
  assert.ok(required.has('vscode'));
  const outside = [...required].filter((name) => name !== 'vscode' && !builtinModules.includes(name.replace(/^node:/, '')));
  assert.deepEqual(outside, []);
});

test('the bundled binary is executable, is the one the extension runs, and runs', () => {
  const installed = path.join(work, 'installed');
  for (const [name, entry] of entries) {
    const file = path.join(installed, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, entry.data, { mode: entry.mode & 0o777 });
  }
  const bundled = path.join(installed, 'extension', 'bin', binaryName);
  if (process.platform !== 'win32') {
    assert.equal(entries.get(`extension/bin/${binaryName}`)!.mode & 0o111, 0o111, 'executable by all');
  }
  const command = serverCommand(undefined, path.join(installed, 'extension'), process.platform, existsSync);
  assert.equal(command, bundled);
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' });
  assert.match(version, /^apcheck \d+\.\d+\.\d+/);
  assert.equal(execFileSync(command, ['--version'], { encoding: 'utf8' }), version);
});
