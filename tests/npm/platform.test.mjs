// The npm package with its platform package, as npm installs them on a
// machine a release binary is built for: `apcheck` and
// `@apcheck/cli-PLATFORM-ARCH` packed, then installed offline together into a
// temporary project. The commands the wasm core does not run (`lsp`,
// `completions`, `man`, `--connect`, `--format FORMAT:FILE`) then run on the
// native binary, with the native CLI's streams, files and exit codes. The
// platform package here carries the debug binary the native tests built
// (stripped), where the release workflow packs the release binary of each
// target (scripts/build-npm-platform.mjs, .github/workflows/release.yml).
// Needs `npm run build:npm` and the Rust CLI (APCHECK_BIN, default
// target/debug/apcheck).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TARGETS, packageName } from '../../scripts/build-npm-platform.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const rustCli = process.env.APCHECK_BIN ?? join(root, 'target/debug/apcheck');
const target = Object.keys(TARGETS).find((key) => TARGETS[key].os === process.platform && TARGETS[key].cpu === process.arch);
const skip = target === undefined && `no release target for ${process.platform} ${process.arch}`;
let project;
let npmCli;

before(() => {
  if (skip) return;
  assert.ok(existsSync(join(root, 'npm/wasm/apcheck_bg.wasm')), 'run `npm run build:npm` first');
  assert.ok(existsSync(rustCli), `the Rust CLI is missing at ${rustCli} (cargo build)`);
  project = mkdtempSync(join(tmpdir(), 'apcheck-npm-platform-'));
  const pack = (dir) =>
    join(project, JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', project], { cwd: dir, encoding: 'utf8' }))[0].filename);
  // The debug binary carries 100 MB of debug information that a release binary does not.
  const binary = join(project, 'apcheck-binary');
  copyFileSync(rustCli, binary);
  spawnSync('strip', ['--strip-debug', binary]);
  const platformDir = join(project, 'platform');
  execFileSync('node', [join(root, 'scripts/build-npm-platform.mjs'), '--target', target, '--binary', binary, '--out', platformDir]);
  const tarballs = [pack(join(root, 'npm')), pack(platformDir)];
  writeFileSync(join(project, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], { cwd: project, stdio: 'inherit' });
  npmCli = join(project, 'node_modules/.bin/apcheck');
});

after(() => project && rmSync(project, { recursive: true, force: true }));

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: project, encoding: 'utf8', maxBuffer: 1 << 26, ...options });
  assert.equal(result.error, undefined);
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

/**
 * Runs ARGS on both; asserts the same stdout, stderr and exit code (stderr
 * after STDERR_SAME, which blanks what may differ between two runs).
 */
function sameAsRust(args, options, stderrSame = (text) => text) {
  const rust = run(rustCli, args, options);
  const npm = run(npmCli, args, options);
  assert.equal(npm.stdout, rust.stdout, args.join(' '));
  assert.equal(stderrSame(npm.stderr), stderrSame(rust.stderr), args.join(' '));
  assert.equal(npm.status, rust.status, args.join(' '));
  return rust;
}

test('npm/package.json names a platform package for every release target, at its own version', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'npm/package.json'), 'utf8'));
  const expected = Object.fromEntries(Object.values(TARGETS).map(({ os, cpu }) => [packageName(os, cpu), manifest.version]));
  assert.deepEqual(manifest.optionalDependencies, expected);
  const workflow = readFileSync(join(root, '.github/workflows/release.yml'), 'utf8');
  // The binaries' job, up to the next job (the wheels job has a matrix of its own).
  const buildJob = workflow.slice(workflow.indexOf('\n  build:\n'), workflow.indexOf('\n  release:\n'));
  const built = [...buildJob.matchAll(/\{ target: ([\w-]+), os:/g)].map((match) => match[1]);
  assert.deepEqual(built.sort(), Object.keys(TARGETS).sort(), 'the release workflow builds a binary for each platform package');
});

test('npm installs this machine\'s platform package beside apcheck, its binary executable', { skip }, () => {
  assert.deepEqual(readdirSync(join(project, 'node_modules/@apcheck')), [packageName(process.platform, process.arch).split('/')[1]]);
  const binary = join(project, 'node_modules', packageName(process.platform, process.arch), 'apcheck');
  assert.ok(statSync(binary).mode & 0o111, 'executable');
  const manifest = JSON.parse(readFileSync(join(dirname(binary), 'package.json'), 'utf8'));
  assert.deepEqual([manifest.os, manifest.cpu], [[process.platform], [process.arch]]);
});

test('completions, man and lsp --help are the native CLI\'s, byte for byte', { skip }, () => {
  for (const shell of ['bash', 'zsh', 'fish', 'powershell', 'elvish']) sameAsRust(['completions', shell]);
  sameAsRust(['man']);
  sameAsRust(['lsp', '--help']);
  assert.equal(sameAsRust(['completions', 'tcsh']).status, 2);
});

test('help and usage errors are clap\'s, byte for byte, when the platform binary is here', { skip }, () => {
  for (const args of [['--help'], ['help'], ['check', '--help'], ['fmt', '-h'], ['changes', '--help'], ['call', '--help']]) {
    assert.equal(sameAsRust(args).status, 0, args.join(' '));
  }
  for (const args of [
    [],
    ['bogus'],
    ['changes', 'only-one.json'],
    ['check', '--format', 'bogus', '.'],
    ['check', '--deny', 'everything', '.'],
    ['fmt', '--write', '--check', 'x.json'],
    ['validate', '--schema', 'a.json', '--builtin', 'mcp-tool', 'doc.json'],
    ['call', 'snapshot.json', 'tool'],
  ]) {
    assert.equal(sameAsRust(args).status, 2, args.join(' '));
  }
});

test('apcheck lsp serves over stdio through the platform binary', { skip }, () => {
  const frame = (message) => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...message });
    return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  const input = [
    frame({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }),
    frame({ method: 'initialized', params: {} }),
    frame({ id: 2, method: 'shutdown' }),
    frame({ method: 'exit' }),
  ].join('');
  const rust = sameAsRust(['lsp'], { input, timeout: 30_000 });
  assert.match(rust.stdout, /"capabilities"/);
  assert.equal(rust.status, 0);
});

test('check --format FORMAT:FILE writes each report as the native CLI does', { skip }, () => {
  const plugins = ['invoice-ops', 'invoice-ops-bad-name'].map((name) => join(root, 'tests/fixtures', name));
  const args = ['check', '--format', 'json:report.json', '--format=sarif:report.sarif', '--format', 'markdown:summary.md', '--format', 'text', ...plugins];
  // One folder for both, emptied between them: SARIF names the working directory.
  const cwd = join(project, 'reports');
  const written = {};
  for (const [name, cli] of [['rust', rustCli], ['npm', npmCli]]) {
    rmSync(cwd, { recursive: true, force: true });
    mkdirSync(cwd);
    const result = run(cli, args, { cwd });
    written[name] = { ...result, files: Object.fromEntries(readdirSync(cwd).sort().map((file) => [file, readFileSync(join(cwd, file), 'utf8')])) };
  }
  assert.deepEqual(written.npm, written.rust);
  assert.deepEqual(Object.keys(written.rust.files), ['report.json', 'report.sarif', 'summary.md']);
  assert.equal(written.rust.status, 1);
});

test('check --connect and snapshot --connect run on the platform binary', { skip }, () => {
  const plugin = join(project, 'connect-plugin');
  cpSync(join(root, 'tests/fixtures/invoice-ops'), plugin, { recursive: true });
  // A server whose command does not exist: the launch fails the same way on every machine, and nothing leaves loopback.
  writeFileSync(
    join(plugin, 'mcp.json'),
    JSON.stringify({
      $schema: 'https://agent-plugins.org/schemas/1.0.0/mcp.schema.json',
      mcpServers: { gone: { type: 'stdio', command: 'apcheck-test-no-such-command' } },
    }),
  );
  const data = join(project, 'connect-data');
  // The connection table on stderr gives each server's time.
  const untimed = (text) => text.replace(/\b\d+ ms\b/g, 'N ms');
  for (const format of ['json', 'text']) {
    const result = sameAsRust(['check', plugin, '--connect', '--data', data, '--format', format, '--color', 'never'], {}, untimed);
    assert.equal(result.status, 1, result.stderr);
    if (format === 'json') assert.match(result.stdout, /apcheck-test-no-such-command/);
  }
  sameAsRust(['snapshot', plugin, '--connect', '--data', data], {}, untimed);
});

test('a native binary that cannot start: exit 2 with the reason, through the core\'s escaping', { skip }, () => {
  const missing = join(project, 'no-such-apcheck');
  const result = run(npmCli, ['man'], { env: { ...process.env, APCHECK_BINARY: missing } });
  assert.equal(result.status, 2);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, new RegExp(`^apcheck: cannot run the native binary ${missing}: spawnSync ${missing} ENOENT\\n$`));
});
