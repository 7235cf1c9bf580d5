#!/usr/bin/env node
// Builds the npm package `apcheck` in `npm/`: the wasm core with the `node`
// feature (wasm-pack `--target web`, one ES module that Node instantiates from
// the file and bundlers fetch beside it), shrunk by the pinned npm binaryen
// wasm-opt with the page's flags (`wasm-pack.toml`). Then `npm pack` in
// `npm/` makes the tarball. Prints the package's size against its budget.
//
//   npm run build:npm

import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parse as parseToml } from 'smol-toml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const config = parseToml(readFileSync(join(root, 'wasm-pack.toml'), 'utf8'));
/** What `npm install apcheck` downloads, gzipped: the wasm is nearly all of it (1.3 MiB in December 2026). */
const BUDGET_KIB = 1536;

function run(command, args) {
  try {
    execFileSync(command, args, { cwd: root, stdio: 'inherit' });
  } catch (error) {
    console.error(`build-npm: \`${command} ${args.join(' ')}\` failed (${error.code ?? `exit ${error.status}`}).`);
    process.exit(2);
  }
}

const wasm = join('npm', 'wasm', 'apcheck_bg.wasm');
console.log('build-npm: wasm-pack (target web, feature node)');
run('wasm-pack', [
  'build', '--mode', 'no-install', '--target', 'web', '--profile', 'wasm-release',
  '--no-typescript', '--no-pack', '--out-dir', 'npm/wasm', '--out-name', 'apcheck',
  '--', '--features', 'node',
]);
console.log('build-npm: wasm-opt', config['wasm-opt'].args.join(' '));
run(join(root, 'node_modules/.bin/wasm-opt'), [...config['wasm-opt'].args, wasm, '-o', wasm]);

// The licence texts the package declares (`MIT OR Apache-2.0`), as the crate
// and the VS Code extension carry them: copied from the repository's root.
for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) copyFileSync(join(root, licence), join(root, 'npm', licence));

const files = JSON.parse(readFileSync(join(root, 'npm/package.json'), 'utf8')).files;
const listed = files.flatMap((entry) =>
  entry.endsWith('/') ? readdirSync(join(root, 'npm', entry)).map((name) => entry + name) : [entry],
);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
let gzipTotal = 0;
for (const file of listed) {
  const bytes = readFileSync(join(root, 'npm', file));
  const gzip = gzipSync(bytes, { level: 9 }).length;
  gzipTotal += gzip;
  console.log(`build-npm:   ${file.padEnd(22)} ${kib(statSync(join(root, 'npm', file)).size).padStart(12)} raw ${kib(gzip).padStart(12)} gzip`);
}
const verdict = gzipTotal <= BUDGET_KIB * 1024 ? 'within' : 'OVER';
console.log(`build-npm: package ${kib(gzipTotal)} gzip, ${verdict} the ${BUDGET_KIB} KiB budget`);
if (verdict === 'OVER') process.exit(1);
