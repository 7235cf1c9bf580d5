// The npm package, as a user gets it: `npm pack` in npm/, the tarball
// installed offline into a temporary project, then:
// - `apcheck check --format json` on every corpus root, byte-identical to the
//   Rust CLI's output, with the same exit code; every format once over all roots;
// - the same with a configuration (found above, or `--config`), the rule flags
//   and a baseline, and the configuration's usage errors;
// - check's --exit-zero, --quiet, --statistics, --output-file and
//   --baseline-write: the same streams, exit codes and files written;
// - check's --fix, --unsafe-fixes and --diff on copies of fixable plugins: the
//   same streams, exit codes and bytes written (nothing for --diff);
// - check-snapshot, drift, changes, diff and validate against the Rust CLI, byte for byte;
// - snapshot (without --connect) and config --show, byte for byte; new and port
//   in folders of their own: the same streams, exit codes and trees written;
// - the typed API from TypeScript (`tsc --noEmit --strict`) and at run time.
// Needs `npm run build:npm` (npm/wasm) and the Rust CLI (APCHECK_BIN, default
// target/debug/apcheck, which `cargo test` builds).
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const shared = process.env.APCHECK_SHARED ?? join(root, '../shared');
const corpus = join(shared, 'corpus');
const rustCli = process.env.APCHECK_BIN ?? join(root, 'target/debug/apcheck');
let project;
let npmCli;

before(() => {
  assert.ok(existsSync(join(root, 'npm/wasm/apcheck_bg.wasm')), 'run `npm run build:npm` first');
  assert.ok(existsSync(rustCli), `the Rust CLI is missing at ${rustCli} (cargo build)`);
  project = mkdtempSync(join(tmpdir(), 'apcheck-npm-'));
  const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', project], {
    cwd: join(root, 'npm'),
    encoding: 'utf8',
  });
  const tarball = join(project, JSON.parse(packed)[0].filename);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
    cwd: project,
    stdio: 'inherit',
  });
  npmCli = join(project, 'node_modules/.bin/apcheck');
});

after(() => project && rmSync(project, { recursive: true, force: true }));

/** Every directory of the corpus with a plugin.json entry, as tests/corpus.rs finds them. */
function corpusRoots() {
  const roots = [];
  const pending = [corpus];
  while (pending.length > 0) {
    const dir = pending.pop();
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) pending.push(join(dir, entry.name));
      else if (entry.name === 'plugin.json') roots.push(dir);
    }
  }
  return roots.sort();
}

/** Like `run`, without blocking, for running several at once. */
function runAsync(command, args) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: project, encoding: 'utf8', maxBuffer: 1 << 28 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ stdout, stderr, status: error ? error.code : 0 });
    });
  });
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: project, encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(result.error, undefined);
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

test('the tarball holds the package and no native code or install scripts', () => {
  const manifest = JSON.parse(execFileSync('npm', ['pkg', 'get', 'scripts', 'dependencies'], { cwd: join(project, 'node_modules/apcheck'), encoding: 'utf8' }));
  assert.deepEqual(manifest, {});
  const files = readdirSync(join(project, 'node_modules/apcheck'), { recursive: true });
  assert.ok(files.includes('wasm/apcheck_bg.wasm'));
  assert.ok(!files.some((file) => file.endsWith('.node')), 'no native addons');
  // The licences it declares, as the repository has them.
  for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) {
    assert.equal(readFileSync(join(project, 'node_modules/apcheck', licence), 'utf8'), readFileSync(join(root, licence), 'utf8'), licence);
  }
});

test('apcheck check --format json is byte-identical to the Rust CLI on every corpus root', async () => {
  const roots = corpusRoots();
  assert.ok(roots.length > 100, `${roots.length} roots`);
  // A few processes at a time: each is mostly waiting for Node to start.
  const queue = [...roots];
  const worker = async () => {
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
      const [rust, wasm] = await Promise.all([
        runAsync(rustCli, ['check', '--format', 'json', dir]),
        runAsync(npmCli, ['check', '--format', 'json', dir]),
      ]);
      assert.equal(wasm.stdout, rust.stdout, dir);
      assert.equal(wasm.status, rust.status, dir);
    }
  };
  await Promise.all([worker(), worker(), worker()]);
});

test('npx apcheck check prints every format and exit code as the Rust CLI does', () => {
  const roots = corpusRoots();
  for (const format of ['text', 'json', 'sarif', 'github', 'markdown']) {
    const args = ['check', '--format', format, ...roots];
    const rust = run(rustCli, args);
    const wasm = run('npx', ['--offline', '--no-install', 'apcheck', ...args]);
    assert.equal(wasm.stdout, rust.stdout, format);
    assert.equal(wasm.status, rust.status, format);
  }
  const collection = [join(corpus, 'fixtures')];
  for (const args of [['check', ...collection], ['check', '--deny', 'warnings', join(corpus, 'real')]]) {
    const rust = run(rustCli, args);
    const wasm = run(npmCli, args);
    assert.equal(wasm.stdout, rust.stdout, args.join(' '));
    assert.equal(wasm.status, rust.status, args.join(' '));
  }
});

/** Writes `files` (path → text) below `dir`. */
function writeTree(dir, files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const PLUGIN_SCHEMA = 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json';

test('a configuration, the rule flags and a baseline change the output exactly as in the Rust CLI', () => {
  const repo = join(project, 'repo');
  const config = [
    'ignore = ["AP209"]',
    'exclude = ["plugins/vendored/**"]',
    '[severity]',
    'AP205 = "error"',
    '[[overrides]]',
    'paths = ["plugins/legacy/**"]',
    'ignore = ["AP2"]',
    '',
  ].join('\n');
  // AP209 (a bad name), AP205 (an unknown key) in each plugin; a skill without frontmatter in one.
  const manifest = (name) => JSON.stringify({ $schema: PLUGIN_SCHEMA, name, colour: 'red' });
  writeTree(repo, {
    'plugins/a/plugin.json': manifest('A'),
    'plugins/legacy/b/plugin.json': manifest('b'),
    'plugins/legacy/b/skills/x/SKILL.md': 'no frontmatter\n',
    'plugins/vendored/c/plugin.json': manifest('C'),
    'apcheck.toml': config,
    'other/pyproject.toml': '[project]\nname = "x"\n[tool.apcheck]\nselect = ["AP3"]\n',
    'other/empty.toml': '',
    'bad/apcheck.toml': 'ignore = ["AP314", "XX9"]\n',
    'bad/plugin/plugin.json': manifest('p'),
    'rejected/plugin.json': JSON.stringify({ $schema: PLUGIN_SCHEMA, name: 'R' }),
  });
  const same = (args) => {
    const rust = run(rustCli, args);
    const wasm = run(npmCli, args);
    assert.equal(wasm.stdout, rust.stdout, args.join(' '));
    assert.equal(wasm.stderr, rust.stderr, args.join(' '));
    assert.equal(wasm.status, rust.status, args.join(' '));
    return rust;
  };
  const plugins = join(repo, 'plugins');
  for (const format of ['text', 'json', 'sarif', 'github', 'markdown']) same(['check', '--format', format, plugins]);
  // `ignore = ["AP209"]` hides why the plugin is rejected, not that it is: both faces fail.
  assert.equal(same(['check', join(repo, 'rejected')]).status, 1);
  const shown = same(['check', '--format', 'json', plugins]);
  const { packages: reports } = JSON.parse(shown.stdout);
  assert.deepEqual(reports.map((report) => report.root), [`${plugins}/a`, `${plugins}/legacy/b`], 'vendored is excluded');
  assert.deepEqual(reports[0].diagnostics.map((d) => [d.code, d.severity]), [['AP205', 'error']]);
  assert.ok(reports[1].diagnostics.every((d) => !d.code.startsWith('AP2')), shown.stdout);

  same(['check', '--select', 'AP2,AP3', '--ignore', 'AP314', '--severity', 'AP205=info', plugins]);
  same(['check', '--format', 'json', '--extend-select=AP209', join(plugins, 'a')]);
  same(['check', '--format', 'json', '--config', join(repo, 'other/pyproject.toml'), plugins, join(corpus, 'fixtures')]);
  // A baseline named by the configuration, relative to it, hides what it records.
  run(rustCli, ['check', '--baseline-write', join(repo, 'known.json'), plugins]);
  writeFileSync(join(repo, 'apcheck.toml'), `baseline = "known.json"\n${config}`);
  same(['check', plugins]);
  const baselined = JSON.parse(same(['check', '--format', 'json', plugins]).stdout).packages;
  assert.ok(baselined.every((report) => report.diagnostics.length === 0 && report.summary.baselined > 0), JSON.stringify(baselined));
  same(['check', '--format', 'json', '--baseline', join(repo, 'other/empty.toml'), plugins]);
  // Usage errors: exit 2 with the CLI's message.
  for (const args of [
    ['check', join(repo, 'bad/plugin')],
    ['check', '--config', join(repo, 'bad/apcheck.toml'), plugins],
    ['check', '--config', join(repo, 'missing.toml'), plugins],
    ['check', '--ignore', 'XX1', plugins],
    ['check', '--severity', 'AP209=warning', plugins],
    ['check', '--severity', 'AP209', plugins],
    ['check', '--baseline', join(repo, 'missing.json'), plugins],
  ]) {
    assert.equal(same(args).status, 2, args.join(' '));
  }
  writeFileSync(join(repo, 'other/pyproject.toml'), '[project]\nname = "x"\n');
  assert.equal(same(['check', '--config', join(repo, 'other/pyproject.toml'), plugins]).status, 2);
});

test('check --exit-zero, --quiet, --statistics, --output-file and --baseline-write match the Rust CLI', () => {
  const repo = join(project, 'flags');
  // AP209 (an error: a bad name) and AP205 (an unknown key) in one plugin; a skill without frontmatter in the other.
  writeTree(repo, {
    'plugins/a/plugin.json': JSON.stringify({ $schema: PLUGIN_SCHEMA, name: 'A', colour: 'red' }),
    'plugins/b/plugin.json': JSON.stringify({ $schema: PLUGIN_SCHEMA, name: 'b' }),
    'plugins/b/skills/x/SKILL.md': 'no frontmatter\n',
  });
  const plugins = join(repo, 'plugins');
  const out = join(repo, 'out.txt');
  const read = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
  /** Both CLIs with `args`, one after the other, writing `file` (removed before each): the same streams, exit code and file. */
  const same = (args, file = out) => {
    rmSync(file, { force: true });
    const rust = run(rustCli, args);
    const rustFile = read(file);
    rmSync(file, { force: true });
    const wasm = run(npmCli, args);
    assert.equal(wasm.stdout, rust.stdout, args.join(' '));
    assert.equal(wasm.stderr, rust.stderr, args.join(' '));
    assert.equal(wasm.status, rust.status, args.join(' '));
    assert.equal(read(file), rustFile, `${args.join(' ')}: ${file}`);
    return { ...rust, file: rustFile };
  };

  assert.equal(same(['check', plugins]).status, 1, 'an error fails the run');
  assert.equal(same(['check', '--exit-zero', plugins]).status, 0, '--exit-zero passes it');
  assert.equal(same(['check', '--exit-zero', '--deny', 'warnings', '--format', 'json', plugins]).status, 0);

  const quiet = same(['check', '-q', plugins]);
  assert.equal(quiet.status, 1);
  assert.match(quiet.stdout, /AP209/, 'the findings are still printed');
  same(['check', '--quiet', '--format', 'json', plugins]);
  same(['check', '--quiet', '--format', 'markdown', plugins]);

  const table = same(['check', '--statistics', plugins]);
  assert.match(table.stdout, /AP209/);
  const counted = same(['check', '--statistics', '--format', 'json', plugins]);
  assert.doesNotThrow(() => JSON.parse(counted.stdout));
  same(['check', '--statistics', '--exit-zero', '--format=json', plugins]);
  assert.equal(same(['check', '--statistics', '--format', 'sarif', plugins]).status, 2, 'statistics are text or json');

  for (const args of [
    ['check', '-o', out, plugins],
    ['check', `--output-file=${out}`, '--format', 'json', plugins],
    ['check', '--output-file', out, '--format', 'sarif', '--color', 'always', plugins],
    ['check', '-o', out, '--statistics', '--quiet', plugins],
  ]) {
    const written = same(args);
    assert.equal(written.stdout, '', `${args.join(' ')} prints nothing`);
    assert.ok(written.file.length > 0, `${args.join(' ')} writes the file`);
  }
  assert.equal(same(['check', '-o', join(repo, 'missing/out.txt'), plugins]).status, 2, 'a file that cannot be written');

  const known = join(repo, 'known.json');
  const recorded = same(['check', '--baseline-write', known, plugins], known);
  assert.equal(recorded.status, 0);
  assert.match(recorded.stderr, /recorded \d+ findings in /);
  assert.equal(same(['check', '-q', '--baseline-write', known, plugins], known).stderr, '', '--quiet says nothing');
  writeFileSync(known, recorded.file);
  const hidden = same(['check', '--format', 'json', '--baseline', known, plugins]);
  // Plugin a is still rejected (its name), which a baseline does not hide: exit 1 in both.
  assert.equal(hidden.status, 1);
  assert.ok(JSON.parse(hidden.stdout).packages.every((report) => report.diagnostics.length === 0), hidden.stdout);
  // Both at once is a usage error (clap's words differ from the npm parser's).
  const both = ['check', '--baseline', known, '--baseline-write', known, plugins];
  assert.equal(run(npmCli, both).status, 2);
  assert.equal(run(rustCli, both).status, 2);
  assert.equal(read(known), recorded.file, 'nothing written');
});

/** Every entry below `dir`, as path → bytes (a file), `-> target` (a link) or `/` (a directory), with its mode. */
function snapshotTree(dir) {
  const entries = {};
  for (const path of readdirSync(dir, { recursive: true }).sort()) {
    const full = join(dir, path);
    const stats = lstatSync(full);
    const mode = (stats.mode & 0o7777).toString(8);
    if (stats.isSymbolicLink()) entries[path] = `-> ${readlinkSync(full)}`;
    else if (stats.isDirectory()) entries[path] = `/ ${mode}`;
    else entries[path] = `${mode} ${readFileSync(full, 'latin1')}`;
  }
  return entries;
}

test('check --fix, --unsafe-fixes and --diff write and print what the Rust CLI does', () => {
  const base = join(project, 'fixing');
  const work = join(base, 'work');
  // The cli tests' plugins (tests/cli/fix.rs): every safe fix; a skill name only an unsafe fix changes;
  // a vendor `hooks` key that an unsafe fix moves under the namespace given; nothing to fix.
  const sources = {
    safe: {
      'plugin.json': `{\n  "$schema": "${PLUGIN_SCHEMA}",\n  "name": "Invoice--Ops",\n  "extensions": "com.example.client"\n}\n`,
      'mcp.json':
        '{\n  "mcpServers": {\n    "local": { "command": "node", "args": ["server.js"] },\n    "remote": { "type": "http", "url": "https://example.com/mcp" }\n  }\n}\n',
    },
    unsafe: {
      'plugin.json': JSON.stringify({ $schema: PLUGIN_SCHEMA, name: 'demo' }),
      'skills/pdf-tools/SKILL.md':
        '---\nname: pdf-tool\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nmetadata:\n  beta: yes\n---\nBody.\n',
    },
    hooks: {
      'plugin.json': `{\n  "$schema": "${PLUGIN_SCHEMA}",\n  "name": "demo",\n  "hooks": { "PreToolUse": [] },\n  "commands": "./commands"\n}\n`,
    },
    clean: { 'plugin.json': JSON.stringify({ $schema: PLUGIN_SCHEMA, name: 'demo' }) },
    configured: {
      'apcheck.toml': 'extensions-namespace = "dev.acme.agent"\n',
      'plugin.json': `{"$schema": "${PLUGIN_SCHEMA}", "name": "demo", "extensions": {"dev.acme.agent": {"theme": "dark"}}, "hooks": {}}`,
    },
  };
  /** Puts `name` (a source above, or a fixture's directory) at `work` afresh. */
  const fresh = (name) => {
    rmSync(work, { recursive: true, force: true });
    if (name in sources) writeTree(work, sources[name]);
    else cpSync(name, work, { recursive: true });
  };
  /** Both CLIs with `args` (`work` added) on fresh copies of `name`: the same streams, exit code and files after. */
  const same = (name, args, setup = () => {}) => {
    const full = ['check', ...args, work];
    fresh(name);
    setup();
    const before = snapshotTree(work);
    const rust = run(rustCli, full);
    const rustTree = snapshotTree(work);
    fresh(name);
    setup();
    const wasm = run(npmCli, full);
    const label = `${full.join(' ')} (${name})`;
    assert.equal(wasm.stdout, rust.stdout, label);
    assert.equal(wasm.stderr, rust.stderr, label);
    assert.equal(wasm.status, rust.status, label);
    assert.deepEqual(snapshotTree(work), rustTree, `${label}: the files after`);
    return { ...rust, before, after: rustTree };
  };

  const fixed = same('safe', ['--fix']);
  assert.equal(fixed.status, 0, fixed.stderr + fixed.stdout);
  assert.match(fixed.stderr, /^apcheck: applied 5 fixes in 2 files\n/);
  assert.notDeepEqual(fixed.after, fixed.before, 'the files are written');
  assert.match(fixed.after['plugin.json'], /"name": "invoice-ops"/);
  same('safe', ['--fix', '--format', 'json']);
  same('safe', ['--fix', '--statistics']);
  const quiet = same('safe', ['--fix', '-q']);
  assert.doesNotMatch(quiet.stderr, /applied/, '--quiet says nothing of the fixes');
  assert.notDeepEqual(quiet.after, quiet.before, '--quiet still writes');

  const diff = same('safe', ['--diff']);
  assert.equal(diff.status, 1, 'changes to make: exit 1');
  assert.match(diff.stdout, /^--- .*mcp\.json\n\+\+\+ .*mcp\.json\n[^]*\n--- .*plugin\.json\n/);
  assert.match(diff.stderr, /^apcheck: 5 fixes would change 2 files\n$/);
  assert.deepEqual(diff.after, diff.before, '--diff writes nothing');
  assert.match(same('safe', ['--diff', '--quiet']).stderr, /would change/, '--quiet keeps the count of --diff');
  assert.deepEqual(same('safe', ['--diff', '--fix']).after, diff.before, '--diff wins over --fix');
  same('unsafe', ['--diff', '--unsafe-fixes']);
  // The baseline records what is left after the fixes (the file is compared with the rest of `work`).
  const recorded = same('safe', ['--fix', '--baseline-write', join(work, 'known.json')]);
  assert.ok('known.json' in recorded.after, recorded.stderr);

  // Safe fixes leave the skill's name; unsafe ones change it too.
  const safeOnly = same('unsafe', ['--fix']);
  assert.match(safeOnly.after['skills/pdf-tools/SKILL.md'], /name: pdf-tool\n[^]*beta: "yes"/);
  const all = same('unsafe', ['--unsafe-fixes']);
  assert.equal(all.status, 0, all.stdout);
  assert.match(all.after['skills/pdf-tools/SKILL.md'], /name: pdf-tools\n/);
  same('unsafe', ['--unsafe-fixes', '--format', 'sarif']);

  // The namespace from the flag or the configuration, and one that is not reverse-domain.
  const noNamespace = same('hooks', ['--unsafe-fixes']);
  assert.deepEqual(noNamespace.after, noNamespace.before, 'no namespace, no fix');
  const moved = same('hooks', ['--unsafe-fixes', '--extensions-namespace', 'com.example.client']);
  assert.match(moved.stderr, /applied 2 fixes in 1 file\n/);
  same('hooks', ['--format', 'json', '--extensions-namespace=com.example.client']);
  assert.equal(same('hooks', ['--fix', '--extensions-namespace', 'claude']).status, 2);
  same('configured', ['--format', 'json']);
  assert.equal(same('configured', ['--unsafe-fixes']).status, 0);

  // Nothing to fix: nothing written, exit 0, for --fix and --diff.
  const nothing = same('clean', ['--fix']);
  assert.match(nothing.stderr, /^apcheck: applied 0 fixes in 0 files\n/);
  assert.deepEqual(nothing.after, nothing.before);
  const noDiff = same('clean', ['--diff']);
  assert.equal(noDiff.status, 0);
  assert.equal(noDiff.stdout, '');

  // A fixture, a collection of roots, and a file reached through a link inside the root.
  same(join(root, 'tests/fixtures/invoice-ops-bad-name'), ['--fix']);
  same(join(root, 'tests/fixtures/invoice-ops-bad-name'), ['--diff']);
  const collection = () => {
    rmSync(work, { recursive: true, force: true });
    writeTree(join(work, 'plugins/a'), sources.safe);
    writeTree(join(work, 'plugins/b'), sources.unsafe);
    writeTree(join(work, 'plugins/c'), sources.clean);
  };
  same('clean', ['--unsafe-fixes', '--format', 'json'], collection);
  same('clean', ['--diff'], collection);
  const linked = same('unsafe', ['--fix'], () => {
    writeFileSync(join(work, 'real-skill.md'), readFileSync(join(work, 'skills/pdf-tools/SKILL.md')));
    rmSync(join(work, 'skills/pdf-tools/SKILL.md'));
    symlinkSync('../../real-skill.md', join(work, 'skills/pdf-tools/SKILL.md'));
    chmodSync(join(work, 'real-skill.md'), 0o640);
  });
  assert.equal(linked.after['skills/pdf-tools/SKILL.md'], '-> ../../real-skill.md', 'the link stays a link');
  assert.match(linked.after['real-skill.md'], /^640 [^]*beta: "yes"/, 'its target is written, its mode kept');
});

test('usage and I/O failures exit 2 as the Rust CLI does', () => {
  for (const args of [['check'], ['check', '--format', 'html', '.'], ['check', join(project, 'nope')], ['nope']]) {
    const rust = run(rustCli, args);
    const wasm = run(npmCli, args);
    assert.equal(wasm.status, 2, args.join(' '));
    assert.equal(wasm.status, rust.status, args.join(' '));
  }
  const missing = join(project, 'nope');
  assert.equal(run(npmCli, ['check', missing]).stderr, run(rustCli, ['check', missing]).stderr);
});

test('the typed API type-checks under tsc --strict and works', async () => {
  cpSync(join(root, 'tests/npm/typed.ts'), join(project, 'typed.ts'));
  const tsc = join(root, 'node_modules/.bin/tsc');
  const compiled = run(tsc, [
    '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022',
    'typed.ts',
  ]);
  assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);

  const apcheck = await import(join(project, 'node_modules/apcheck/node.js'));
  const report = apcheck.checkFiles('demo', {
    'plugin.json': '{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "Demo"}',
  });
  assert.equal(report.plugin.state, 'rejected');
  const [finding] = report.diagnostics;
  assert.equal(finding.code, 'AP209');
  const fixed = apcheck.applyEdits(
    '{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "Demo"}',
    finding.fix.edits,
  );
  assert.equal(fixed.ok, true);
  assert.match(fixed.text, /"name": "demo"/);
  assert.deepEqual(apcheck.format('{"a":1.50}', { indent: 4 }), { ok: true, text: '{\n    "a": 1.50\n}\n', duplicates: [] });
  assert.deepEqual(apcheck.format('{"a":1,"a":2}', {}).duplicates.map((d) => d.pointer), ['/a']);
  assert.equal(apcheck.format('{', {}).ok, false);
  assert.equal(apcheck.validate('{}', { builtin: 'mcp-tool' }).valid, false);
  assert.equal(apcheck.diff('{"a":1}', '{"a":2}').summary.changed, 1);
  assert.equal(apcheck.lintSnapshot('s.json', 'not json').valid, false);
  assert.ok(apcheck.rules().length > 100);

  // renderCheck's fixes: the files to write handed to `write`, the reports those of the fixed files.
  const demo = () => apcheck.packageFromFiles({ 'plugin.json': `{"$schema": "${PLUGIN_SCHEMA}", "name": "Demo"}` });
  const writes = [];
  const afterFix = apcheck.renderCheck([{ name: 'demo', package: demo() }], {
    format: 'json',
    fix: { write: (index, file, text) => writes.push({ index, file, text }) },
  });
  assert.deepEqual(writes, [{ index: 0, file: 'plugin.json', text: `{"$schema": "${PLUGIN_SCHEMA}", "name": "demo"}` }]);
  assert.equal(afterFix.fixed.summary, 'apcheck: applied 1 fix in 1 file\n');
  assert.equal(afterFix.reports[0].diagnostics.length, 0);
  assert.equal(afterFix.fails, false);
  const asDiff = apcheck.renderCheck([{ name: 'demo', package: demo() }], { format: 'text', fix: { diff: true } });
  assert.match(asDiff.output, /^--- demo\/plugin\.json\n/);
  assert.equal(asDiff.fixed.summary, 'apcheck: 1 fix would change 1 file\n');
  assert.equal(asDiff.fails, true);
});

/**
 * `command args…` as a user whom file permissions apply to: `nobody` through
 * `setpriv` when the tests run as root (as tests/support/unprivileged.rs does).
 */
function runUnprivileged(command, args) {
  if (process.getuid() !== 0) return run(command, args);
  return run('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', command, ...args]);
}

test('a root or a marketplace folder that cannot be listed is reported as the Rust CLI reports it', () => {
  // Under /tmp, mode 0755: `nobody` must reach it (a private TMPDIR would not do).
  const dir = mkdtempSync('/tmp/apcheck-npm-unlisted-');
  chmodSync(dir, 0o755);
  // The npm package as built in the repository: the installed copy is in a private folder.
  const npmBin = join(root, 'npm/bin/apcheck.js');
  const manifest = JSON.stringify({ $schema: PLUGIN_SCHEMA, name: 'demo' });
  writeTree(dir, {
    'root/plugin.json': manifest,
    'market/plugins/good/plugin.json': manifest,
    'market/plugins/locked/inner/plugin.json': manifest,
  });
  try {
    for (const [locked, path] of [
      ['root', 'root'],
      ['market/plugins/locked', 'market'],
    ]) {
      for (const mode of [0o000, 0o311]) {
        chmodSync(join(dir, locked), mode);
        const args = ['check', join(dir, path)];
        const rust = runUnprivileged(rustCli, args);
        const wasm = runUnprivileged('node', [npmBin, ...args]);
        chmodSync(join(dir, locked), 0o755);
        const what = `${locked} at ${mode.toString(8)}`;
        assert.doesNotMatch(wasm.stdout, /There is no plugin\.json/, what);
        assert.equal(wasm.stdout, rust.stdout, what);
        assert.equal(wasm.status, 1, what);
        assert.equal(wasm.status, rust.status, what);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a fix that cannot be written fails as in the Rust CLI, and nothing is left behind', () => {
  // Under /tmp, mode 0755: `nobody` reads the root, but cannot create the temporary file beside a fixed one.
  const dir = mkdtempSync('/tmp/apcheck-npm-readonly-');
  chmodSync(dir, 0o755);
  const npmBin = join(root, 'npm/bin/apcheck.js');
  writeTree(dir, { 'root/plugin.json': JSON.stringify({ $schema: PLUGIN_SCHEMA, name: 'Demo' }) });
  try {
    chmodSync(join(dir, 'root'), 0o555);
    const before = snapshotTree(dir);
    const args = ['check', '--fix', join(dir, 'root')];
    const rust = runUnprivileged(rustCli, args);
    const wasm = runUnprivileged('node', [npmBin, ...args]);
    assert.equal(rust.status, 2, rust.stderr);
    assert.match(rust.stderr, /plugin\.json: Permission denied/);
    assert.equal(wasm.stdout, rust.stdout);
    assert.equal(wasm.stderr, rust.stderr);
    assert.equal(wasm.status, rust.status);
    assert.deepEqual(snapshotTree(dir), before);
  } finally {
    chmodSync(join(dir, 'root'), 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The Rust CLI and the npm package give the same stdout, stderr and exit code for `args`. */
function sameAsRust(args) {
  const rust = run(rustCli, args);
  const wasm = run(npmCli, args);
  const what = args.join(' ');
  assert.equal(wasm.stdout, rust.stdout, what);
  assert.equal(wasm.stderr, rust.stderr, what);
  assert.equal(wasm.status, rust.status, what);
  return rust;
}

test('rules and explain print what the Rust CLI prints, in each format', () => {
  for (const format of ['text', 'json']) {
    assert.ok(sameAsRust(['rules', '--format', format]).stdout.includes('AP209'), format);
    for (const rule of ['AP209', 'ap314', 'manifest-name-invalid']) sameAsRust(['explain', rule, `--format=${format}`]);
  }
  assert.equal(sameAsRust(['explain', 'AP000']).status, 2);
});

test('check-snapshot, drift and changes print what the Rust CLI prints, in every format', () => {
  const fixtures = join(root, 'tests/fixtures');
  const plugins = [
    join(fixtures, 'invoice-ops'),
    join(fixtures, 'invoice-ops-bad-name'),
    join(fixtures, 'invoice-ops-untyped-server'),
    ...corpusRoots().filter((_, index) => index % 20 === 0),
  ];
  // Each root's snapshot as the Rust CLI builds it, and the hand-written one of the fixture.
  const snapshots = [join(fixtures, 'invoice-ops/snapshot.json')];
  plugins.forEach((plugin, index) => {
    const file = join(project, `snapshot-${index}.json`);
    if (run(rustCli, ['snapshot', plugin, '--output', file]).status === 0) snapshots.push(file);
  });
  assert.ok(snapshots.length > 4, snapshots.join(' '));
  writeFileSync(join(project, 'broken.json'), '{"$schema": "urn:apcheck:schema:snapshot:1", "plugin": ');
  writeFileSync(join(project, 'latin1.json'), Buffer.from([0x7b, 0xe9, 0x7d]));
  const statuses = new Set();
  for (const format of ['text', 'json', 'sarif', 'github', 'markdown']) {
    statuses.add(sameAsRust(['check-snapshot', '--format', format, ...snapshots, join(project, 'broken.json')]).status);
    sameAsRust(['check-snapshot', '--format', format, '--plugin', plugins[0], snapshots[0]]);
    for (const plugin of plugins) statuses.add(sameAsRust(['drift', '--format', format, snapshots[0], plugin]).status);
    for (const [old, current] of snapshots.slice(1).map((file, index) => [snapshots[index], file])) {
      statuses.add(sameAsRust(['changes', `--format=${format}`, old, current]).status);
    }
  }
  assert.deepEqual([...statuses].sort(), [0, 1], 'clean and failing runs are both compared');
  // Unreadable inputs: exit 2 with the Rust CLI's message.
  const missing = join(project, 'missing.json');
  for (const args of [
    ['check-snapshot', missing],
    ['check-snapshot', join(project, 'latin1.json')],
    ['check-snapshot', '--plugin', join(project, 'nope'), snapshots[0]],
    ['drift', missing, plugins[0]],
    ['drift', snapshots[0], join(project, 'nope')],
    ['changes', snapshots[0], missing],
  ]) {
    assert.equal(sameAsRust(args).status, 2, args.join(' '));
  }
});

test('call checks tools/call arguments as the Rust CLI does, in every format', () => {
  const fixture = join(root, 'tests/fixtures/invoice-ops');
  const [snapshot, good] = [join(fixture, 'snapshot.json'), join(fixture, 'arguments.json')];
  const bad = join(project, 'call-bad.json');
  writeFileSync(bad, '{\n  "week": "2026-9"\n}');
  const statuses = new Set();
  for (const format of ['text', 'json', 'sarif', 'github', 'markdown']) {
    for (const [tool, args] of [['query_invoices', good], ['query_invoices', bad], ['nope', good], ['invoice-tools/query_invoices', bad]]) {
      statuses.add(sameAsRust(['call', '--format', format, '--color', 'never', snapshot, tool, args]).status);
    }
  }
  assert.deepEqual([...statuses].sort(), [0, 1], 'accepted and refused arguments are both compared');
  for (const args of [['call', join(project, 'missing.json'), 'query_invoices', good], ['call', snapshot, 'query_invoices', join(project, 'missing.json')]]) {
    assert.equal(sameAsRust(args).status, 2, args.join(' '));
  }
});

test('fmt, diff and validate print what the Rust CLI prints, in every format', () => {
  const dir = join(project, 'json');
  const file = (name) => join(dir, name);
  const tools = (...names) => ({ tools: names.map((name) => ({ name, description: `${name} it`, inputSchema: { type: 'object' } })) });
  writeTree(dir, {
    'a.json': JSON.stringify({ name: 'demo', version: '1.0.0', keep: [1, 2], ...tools('read', 'write') }, null, 2),
    'a-again.json': JSON.stringify({ version: '1.0.0', name: 'demo', keep: [1, 2], ...tools('read', 'write') }),
    'b.json': JSON.stringify({ name: 'demo', version: '1.1.0', keep: [2], extra: null, ...tools('write', 'read', 'list') }, null, 2),
    'null.json': '{"name": "demo", "version": null}',
    'broken.json': '{"name": "demo",\n  "version": }',
    'schema.json': JSON.stringify({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 2 }, version: { $ref: 'version.json' }, mail: { format: 'email' } },
    }),
    'version.json': JSON.stringify({ $id: 'version.json', type: 'string', pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$' }),
    'bad-schema.json': '{"type": 12}',
    'valid.json': '{"name": "demo", "version": "1.0.0", "mail": "not an address"}',
    'invalid.json': '{\n  "name": "d",\n  "version": "one"\n}',
    'tool.json': JSON.stringify({ name: 'read', inputSchema: { type: 'object' } }),
    'bad-tool.json': JSON.stringify({ name: 7 }),
  });
  writeFileSync(file('latin1.json'), Buffer.from([0x7b, 0xe9, 0x7d]));
  const statuses = new Set();
  for (const format of ['text', 'json', 'patch', 'merge', 'unified']) {
    for (const [a, b] of [
      ['a.json', 'b.json'],
      ['a.json', 'a-again.json'],
      ['b.json', 'null.json'],
    ]) {
      statuses.add(sameAsRust(['diff', '--format', format, file(a), file(b)]).status);
      sameAsRust(['diff', `--format=${format}`, '--ignore', '/version', '--array-key', '/tools=description', '--no-default-keys', file(a), file(b)]);
    }
    for (const args of [
      [file('a.json'), file('broken.json')],
      [file('broken.json'), file('b.json')],
      [file('a.json'), file('missing.json')],
      [file('latin1.json'), file('a.json')],
      ['--ignore', 'version', file('a.json'), file('b.json')],
      ['--array-key', '/tools=', file('a.json'), file('b.json')],
    ]) {
      assert.equal(sameAsRust(['diff', '--format', format, ...args]).status, 2, args.join(' '));
    }
  }
  assert.deepEqual([...statuses].sort(), [0, 1], 'equal and different documents are both compared');
  const verdicts = new Set();
  for (const format of ['text', 'json', 'sarif', 'github', 'markdown']) {
    const schema = ['--schema', file('schema.json'), '--ref', file('version.json')];
    verdicts.add(sameAsRust(['validate', '--format', format, ...schema, file('valid.json')]).status);
    verdicts.add(sameAsRust(['validate', '--format', format, ...schema, file('valid.json'), file('invalid.json'), file('broken.json')]).status);
    verdicts.add(sameAsRust(['validate', '--format', format, '--formats', ...schema, file('valid.json')]).status);
    verdicts.add(sameAsRust(['validate', `--format=${format}`, '--builtin', 'mcp-tool', file('tool.json'), file('bad-tool.json')]).status);
    for (const args of [
      [...schema, file('valid.json'), file('missing.json')],
      [...schema, file('latin1.json')],
      ['--schema', file('bad-schema.json'), file('valid.json')],
      ['--schema', file('broken.json'), file('valid.json')],
      ['--schema', file('schema.json'), file('valid.json')],
      ['--schema', file('missing.json'), file('valid.json')],
      ['--builtin', 'no-such-schema', file('tool.json')],
      ['--builtin', 'mcp-tool'],
      ['--max-input-mib', '0', '--builtin', 'mcp-tool', file('tool.json')],
    ]) {
      assert.equal(sameAsRust(['validate', '--format', format, ...args]).status, 2, args.join(' '));
    }
  }
  assert.deepEqual([...verdicts].sort(), [0, 1], 'valid and invalid documents are both validated');
  assert.match(sameAsRust(['validate', '--builtin', 'list']).stdout, /mcp-tool/);
  for (const args of [
    ['diff', file('a.json')],
    ['diff', '--format', 'yaml', file('a.json'), file('b.json')],
    ['validate', file('valid.json')],
    ['validate', '--schema', file('schema.json'), '--builtin', 'mcp-tool', file('valid.json')],
  ]) {
    const wasm = run(npmCli, args);
    assert.equal(wasm.status, 2, args.join(' '));
    assert.match(wasm.stderr, /^error: /, args.join(' '));
  }
  assert.match(run(npmCli, ['diff', '--help']).stdout, /standard input/);

  writeFileSync(file('jsonc.json'), '{"b": [1, 2,], // a comment\n "a": {"x": 1e3, "y": "\\u00e9"},}');
  writeFileSync(file('formatted.json'), run(rustCli, ['fmt', file('a-again.json')]).stdout);
  const formatted = new Set();
  for (const flags of [[], ['--indent', '4'], ['--indent=tab', '--sort-keys'], ['--minify'], ['--jsonc'], ['--jsonc', '--minify', '--sort-keys']]) {
    for (const name of ['a.json', 'a-again.json', 'formatted.json', 'broken.json', 'jsonc.json']) {
      formatted.add(sameAsRust(['fmt', ...flags, file(name)]).status);
      formatted.add(sameAsRust(['fmt', '--check', ...flags, file(name)]).status);
    }
    sameAsRust(['fmt', '--check', ...flags, file('formatted.json'), file('a.json'), file('broken.json'), file('missing.json')]);
  }
  assert.deepEqual([...formatted].sort(), [0, 1], 'formatted and unformatted documents are both checked');
  for (const args of [[file('missing.json')], [file('latin1.json')], [file('a.json'), file('b.json')], ['--max-input-mib', '0', file('a.json')]]) {
    assert.equal(sameAsRust(['fmt', ...args]).status, 2, args.join(' '));
  }
  // --write: the same files, written by each.
  for (const cli of [rustCli, npmCli]) {
    const copy = join(project, `written-${cli === rustCli ? 'rust' : 'wasm'}`);
    cpSync(dir, copy, { recursive: true });
    const names = ['a.json', 'jsonc.json', 'broken.json'];
    run(cli, ['fmt', '--write', '--jsonc', '--indent', '4', ...names.map((name) => join(copy, name))]);
  }
  for (const name of readdirSync(dir)) {
    assert.deepEqual(readFileSync(join(project, 'written-wasm', name)), readFileSync(join(project, 'written-rust', name)), name);
  }
  for (const args of [
    ['fmt', '--write', '--check', file('a.json')],
    ['fmt', '--minify', '--indent', '4', file('a.json')],
    ['fmt', '--indent', '3', file('a.json')],
    ['fmt'],
  ]) {
    const wasm = run(npmCli, args);
    assert.equal(wasm.status, 2, args.join(' '));
    assert.match(wasm.stderr, /^error: /, args.join(' '));
  }
});

test('snapshot without --connect prints and writes what the Rust CLI does', () => {
  const fixtures = join(root, 'tests/fixtures');
  const plugin = join(fixtures, 'invoice-ops');
  const tools = join(plugin, 'tools-list.json');
  // A capture whose last page still has a nextCursor: a warning first, then the snapshot.
  const paged = join(project, 'paged-tools.json');
  writeFileSync(paged, JSON.stringify([{ tools: [{ name: 'list_invoices', inputSchema: { type: 'object' } }], nextCursor: 'more' }]));
  const outcomes = new Set();
  for (const args of [
    ['snapshot', plugin],
    ['snapshot', plugin, '--tools', `invoice-tools=${tools}`],
    ['snapshot', plugin, `--tools=invoice-tools=${paged}`],
    ['snapshot', plugin, '--failed', 'invoice-tools=connection refused'],
    ['snapshot', plugin, '--failed', 'invoice-tools'],
    ['snapshot', plugin, '--failed', 'nope=timed out'],
    ['snapshot', plugin, '--tools', tools],
    ['snapshot', plugin, '--tools', `billing=${tools}`],
    ['snapshot', plugin, '--tools', `invoice-tools=${join(plugin, 'missing.json')}`],
    ['snapshot', plugin, '--tools', `invoice-tools=${join(plugin, 'README.md')}`],
    ['snapshot', plugin, '--tools', `invoice-tools=${tools}`, '--tools', `invoice-tools=${tools}`],
    ['snapshot', join(fixtures, 'invoice-ops-bad-name')],
    ['snapshot', join(fixtures, 'invoice-ops-untyped-server')],
    ['snapshot', join(fixtures, 'port/claude')],
    ['snapshot', join(fixtures, 'missing')],
    ['snapshot', join(plugin, 'plugin.json')],
    // A name with a control character is escaped as the Rust CLI escapes it.
    ['snapshot', join(fixtures, 'no\u001b[31msuch')],
  ]) {
    outcomes.add(sameAsRust(args).status);
  }
  assert.deepEqual([...outcomes].sort(), [0, 1, 2], 'clean, rejected and failing snapshots are all compared');
  // --output: the same file written, nothing on standard output.
  for (const cli of [rustCli, npmCli]) {
    const file = join(project, `snapshot-${cli === rustCli ? 'rust' : 'wasm'}.json`);
    const { stdout, status } = run(cli, ['snapshot', plugin, '-o', file, '--tools', `invoice-tools=${tools}`]);
    assert.equal(stdout, '');
    assert.equal(status, 0);
  }
  assert.equal(readFileSync(join(project, 'snapshot-wasm.json'), 'utf8'), readFileSync(join(project, 'snapshot-rust.json'), 'utf8'));
  sameAsRust(['snapshot', plugin, '--output', join(project, 'no/such/dir/snapshot.json')]);
});

test('config --show prints what the Rust CLI prints', () => {
  const repo = join(project, 'config-repo');
  mkdirSync(join(repo, 'plugins/one'), { recursive: true });
  writeFileSync(join(repo, 'apcheck.toml'), 'select = ["AP2", "AP3"]\nignore = ["AP205"]\nbaseline = "baseline.json"\n\n[severity]\nAP314 = "off"\n\n[[overrides]]\npaths = ["plugins/*"]\nignore = ["AP3"]\n');
  writeFileSync(join(repo, 'pyproject.toml'), '[tool.apcheck]\nextend-select = ["AP7"]\n');
  writeFileSync(join(repo, 'bad.toml'), 'select = ["NOPE"]\n');
  for (const args of [
    ['config', '--show'],
    ['config', '--show', join(root, 'tests/fixtures/invoice-ops')],
    ['config', '--show', join(repo, 'plugins/one')],
    ['config', '--show', '--select', 'AP1,AP4', '--extend-select', 'AP5', '--ignore', 'AP101', '--severity', 'AP205=error', join(repo, 'plugins/one')],
    ['config', '--show', '--extensions-namespace', 'com.example.client', repo],
    ['config', '--show', '--config', join(repo, 'pyproject.toml'), repo],
    ['config', '--show', '--config', join(repo, 'bad.toml'), repo],
    ['config', '--show', '--config', join(repo, 'missing.toml')],
    ['config', '--show', '--select', 'NOPE', repo],
  ]) {
    sameAsRust(args);
  }
  assert.equal(run(npmCli, ['config']).status, 2, 'config without --show is a usage error');
});

/** Runs `command` in the folder `cwd`. */
function runIn(cwd, command, args) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  assert.equal(result.error, undefined);
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

/** Every entry under `dir`: path, kind, bytes or link target, and the executable bits. */
function treeOf(dir) {
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir, { recursive: true })
    .sort()
    .map((path) => {
      const full = join(dir, path);
      const stats = lstatSync(full);
      if (stats.isSymbolicLink()) return { path, link: readlinkSync(full) };
      if (stats.isDirectory()) return { path, dir: true };
      return { path, bytes: readFileSync(full, 'utf8'), executable: stats.mode & 0o111 };
    });
}

/**
 * Runs a command that writes files with each CLI, in a folder of its own set
 * up by `setup`: the same streams and exit code (the folder's path replaced),
 * and the same tree written.
 */
function sameWrites(args, setup = () => {}) {
  const sides = [rustCli, npmCli].map((cli) => {
    const cwd = mkdtempSync(join(project, 'writes-'));
    setup(cwd);
    const result = runIn(cwd, cli, args);
    const shown = (text) => text.replaceAll(cwd, '<DIR>');
    return { stdout: shown(result.stdout), stderr: shown(result.stderr), status: result.status, tree: treeOf(cwd) };
  });
  const [rust, wasm] = sides;
  const what = args.join(' ');
  assert.equal(wasm.stdout, rust.stdout, what);
  assert.equal(wasm.stderr, rust.stderr, what);
  assert.equal(wasm.status, rust.status, what);
  assert.deepEqual(wasm.tree, rust.tree, what);
  return rust;
}

test('new writes the package and prints what the Rust CLI does, with its refusals', () => {
  const outcomes = new Set();
  for (const args of [
    ['new', 'invoice-ops'],
    ['new', 'plugins/invoice-ops/', '--skill', 'weekly-summary', '--skill', 'triage', '--stdio-server', 'tools', 'uvx invoice-tools --read-only', '--http-server', 'billing', 'https://billing.example.com/mcp'],
    ['new', 'Bad_Name'],
    ['new', 'x', '--skill', 'a', '--skill', 'a'],
    ['new', 'x', '--stdio-server', 't', 'unclosed "quote'],
    ['new', 'x', '--http-server', 't', 'not-a-url'],
    ['new', '.'],
    ['new', 'dir/..'],
  ]) {
    outcomes.add(sameWrites(args).status);
  }
  assert.deepEqual([...outcomes].sort(), [0, 2]);
  // DEST must not exist or be empty; a link to an empty folder is written through, as natively.
  sameWrites(['new', 'x'], (cwd) => mkdirSync(join(cwd, 'x')));
  assert.equal(sameWrites(['new', 'x'], (cwd) => mkdirSync(join(cwd, 'x/y'), { recursive: true })).status, 2);
  assert.equal(sameWrites(['new', 'x'], (cwd) => writeFileSync(join(cwd, 'x'), '')).status, 2);
  sameWrites(['new', 'x', '--skill', 's'], (cwd) => {
    mkdirSync(join(cwd, 'real'));
    symlinkSync('real', join(cwd, 'x'));
  });
});

test('port writes the package and prints what the Rust CLI does, with its refusals', () => {
  const source = join(root, 'tests/fixtures/port/claude');
  const copy = (cwd) => cpSync(source, join(cwd, 'src'), { recursive: true });
  const outcomes = new Set();
  for (const args of [
    ['port', 'src', '-o', 'out'],
    ['port', 'src'],
    ['port', 'src', '--dry-run'],
    ['port', 'src', '--output=out', '--name', 'other-name'],
    ['port', 'src', '-oout', '--from', 'codex'],
    ['port', 'src', '-o', 'out', '--from', 'claude'],
    ['port', 'src/README.md', '-o', 'out'],
    ['port', 'missing', '-o', 'out'],
    ['port', 'mis\u001b[31msing', '-o', 'out'],
  ]) {
    outcomes.add(sameWrites(args, copy).status);
  }
  assert.deepEqual([...outcomes].sort(), [0, 1, 2]);
  // A script stays executable.
  const written = sameWrites(['port', 'src', '-o', 'out'], copy);
  assert.notEqual(written.tree.find((entry) => entry.path === 'out/bin/changes').executable, 0);
  // DEST not empty: refused, or written into with --force; never through a link; a file is no folder.
  const full = (cwd) => {
    copy(cwd);
    mkdirSync(join(cwd, 'out'));
    writeFileSync(join(cwd, 'out/kept'), 'mine\n');
  };
  assert.equal(sameWrites(['port', 'src', '-o', 'out'], full).status, 2);
  assert.equal(sameWrites(['port', 'src', '-o', 'out', '--force'], full).status, 0);
  const linked = (cwd) => {
    full(cwd);
    mkdirSync(join(cwd, 'elsewhere'));
    symlinkSync('../elsewhere', join(cwd, 'out/skills'));
  };
  assert.equal(sameWrites(['port', 'src', '-o', 'out', '--force'], linked).status, 2);
  assert.equal(
    sameWrites(['port', 'src', '-o', 'out'], (cwd) => {
      copy(cwd);
      writeFileSync(join(cwd, 'out'), '');
    }).status,
    2,
  );
});

test('without a platform package, the commands that need the native binary say so and exit 2', () => {
  for (const args of [
    ['lsp'],
    ['completions', 'bash'],
    ['man'],
    ['check', '--connect', '.'],
    ['snapshot', '--connect', '.'],
    ['snapshot', '.', '--timeout=5'],
    ['check', '--format', 'json:report.json', '.'],
  ]) {
    const wasm = run(npmCli, args);
    assert.equal(wasm.status, 2, args.join(' '));
    assert.match(wasm.stderr, /needs the native apcheck binary.*cargo install apcheck.*pip install apcheck/, args.join(' '));
    assert.equal(wasm.stdout, '', args.join(' '));
  }
});

test('npm publish --dry-run of the package is clean', () => {
  const published = spawnSync('npm', ['publish', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: join(root, 'npm'),
    encoding: 'utf8',
  });
  assert.equal(published.status, 0, published.stderr);
  // Not logged in is no fault of the package.
  const warnings = published.stderr.split('\n').filter((line) => /npm warn/i.test(line) && !/requires you to be logged in/.test(line));
  assert.deepEqual(warnings, []);
  const parsed = JSON.parse(published.stdout);
  // npm 10 keys the report by the package's name.
  const { files } = parsed.apcheck ?? parsed;
  assert.deepEqual(files.map((file) => file.path).sort(), [
    'LICENSE-APACHE', 'LICENSE-MIT', 'README.md', 'api.js', 'bin/apcheck.js', 'bin/native.js', 'disk.js', 'index.d.ts', 'index.js', 'node.js',
    'package.json', 'wasm/apcheck.js', 'wasm/apcheck_bg.wasm',
  ]);
});
