#!/usr/bin/env node
// Builds one platform package of the npm package `apcheck`:
// `@apcheck/cli-PLATFORM-ARCH`, which carries the native binary for the
// commands the wasm core cannot run (`lsp`, `completions`, `man`, `--connect`,
// repeated `--format FORMAT:FILE`). `npm/package.json` lists one
// per release target as an optional dependency, and each declares its `os`
// and `cpu`, so npm installs the one that fits the machine and skips the rest,
// as esbuild and Biome ship theirs. The release workflow runs this for each
// binary it builds; the npm tests run it on the debug binary.
//
//   node scripts/build-npm-platform.mjs --target TRIPLE --binary PATH --out DIR
//   node scripts/build-npm-platform.mjs --names     (the package of every target, as JSON)

import { copyFileSync, chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The release workflow's targets, as Node names their platform and
 * architecture (`process.platform`, `process.arch`). The Linux binaries are
 * static (musl), so one package serves glibc and musl systems alike.
 */
export const TARGETS = {
  'x86_64-unknown-linux-musl': { os: 'linux', cpu: 'x64' },
  'aarch64-unknown-linux-musl': { os: 'linux', cpu: 'arm64' },
  'x86_64-apple-darwin': { os: 'darwin', cpu: 'x64' },
  'aarch64-apple-darwin': { os: 'darwin', cpu: 'arm64' },
  'x86_64-pc-windows-msvc': { os: 'win32', cpu: 'x64' },
};

/** The package that carries the binary for a Node platform and architecture; npm/bin/native.js resolves the same name. */
export function packageName(os, cpu) {
  return `@apcheck/cli-${os}-${cpu}`;
}

function main() {
  const { values } = parseArgs({
    options: { target: { type: 'string' }, binary: { type: 'string' }, out: { type: 'string' }, names: { type: 'boolean' } },
  });
  if (values.names) {
    console.log(JSON.stringify(Object.values(TARGETS).map(({ os, cpu }) => packageName(os, cpu))));
    return;
  }
  const platform = TARGETS[values.target];
  if (!platform || !values.binary || !values.out) {
    console.error(`usage: build-npm-platform.mjs --target <${Object.keys(TARGETS).join('|')}> --binary PATH --out DIR`);
    process.exit(2);
  }
  const main = JSON.parse(readFileSync(join(root, 'npm/package.json'), 'utf8'));
  const name = packageName(platform.os, platform.cpu);
  const executable = platform.os === 'win32' ? 'apcheck.exe' : 'apcheck';
  rmSync(values.out, { recursive: true, force: true });
  mkdirSync(values.out, { recursive: true });
  copyFileSync(values.binary, join(values.out, executable));
  chmodSync(join(values.out, executable), 0o755);
  for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) copyFileSync(join(root, licence), join(values.out, licence));
  const manifest = {
    name,
    version: main.version,
    description: `The native apcheck binary for ${platform.os} ${platform.cpu}, which the npm package apcheck runs for lsp, completions, man, --connect and --format FORMAT:FILE`,
    license: main.license,
    os: [platform.os],
    cpu: [platform.cpu],
    files: [executable, 'LICENSE-MIT', 'LICENSE-APACHE'],
    // Yarn's Plug'n'Play must put the binary on disk to run it.
    preferUnplugged: true,
  };
  writeFileSync(join(values.out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(values.out, 'README.md'),
    `# ${name}\n\nThe native \`apcheck\` binary for ${platform.os} ${platform.cpu} (Rust target \`${values.target}\`). Install \`apcheck\`, not this: npm adds this package on the machines it fits, and \`npx apcheck\` runs it for the commands the WebAssembly core cannot run.\n`,
  );
  console.log(`build-npm-platform: ${name}@${main.version} in ${values.out}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
