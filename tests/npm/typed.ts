// The npm package's typed API as a TypeScript user writes it; compiled with
// `tsc --noEmit --strict` by tests/npm/package.test.mjs. Each result is
// narrowed before use, so a wrong type in index.d.ts fails the compile.
import {
  Package,
  Settings,
  applyEdits,
  builtinSchemas,
  call,
  changes,
  checkDirectory,
  checkFiles,
  diff,
  explain,
  findRoots,
  format,
  limits,
  lintSnapshot,
  loadSettings,
  readPackage,
  relativeTo,
  renderCheck,
  rules,
  validate,
  type Diagnostic,
  type PackageReport,
  type Severity,
} from 'apcheck';

/** What the program looked at; exported so nothing counts as unused. */
export const seen: unknown[] = [];

const report: PackageReport = checkFiles('demo', { 'plugin.json': '{}' });
const first: Diagnostic | undefined = report.diagnostics[0];
const severity: Severity | undefined = first?.severity;
const line: number | null | undefined = first?.line;
seen.push(report.plugin.state === 'rejected', severity, line, report.summary.errors);
const fix = first?.fix;
if (fix) {
  const fixed = applyEdits('{}', fix.edits.filter((edit) => edit.file === 'plugin.json'));
  seen.push(fix.applicability === 'safe', fixed.ok ? fixed.text : fixed.error.message);
}

const pkg = new Package().addFile('plugin.json', new Uint8Array()).addDirectory('skills').addSymlink('x', '..');
const { output, fails } = renderCheck([{ name: 'demo', package: pkg }], { format: 'sarif', sarifBase: '/tmp' });
seen.push(output.length, fails);

const built = pkg.buildSnapshot('demo', { server: '{"tools": []}' });
if (built.ok) {
  seen.push(built.snapshot.plugin.name, built.snapshot.mcpServers.map((s) => s.status));
  const drift = pkg.drift('demo', 'snapshot.json', built.text);
  seen.push(drift.report.rows.map((row) => row.fix), drift.markdown);
  seen.push(pkg.lintSnapshot('snapshot.json', built.text).valid);
} else {
  seen.push(built.error.message);
}
seen.push(pkg.fixAll('demo', { includeUnsafe: true }).changed.map((change) => change.file));
pkg.free();

const formatted = format('{"a": 1}', { indent: 'tab', sortKeys: true });
seen.push(formatted.ok ? formatted.text : `${formatted.error.message} at ${formatted.error.line}`);

const validated = validate('{}', { builtin: 'mcp-tool' }, { formats: true });
if (validated.ok) seen.push(validated.valid, validated.issues.map((issue) => issue.instance_pointer));
seen.push(validate('{}', '{"type": "object"}').ok, builtinSchemas().map((schema) => schema.name));

const compared = diff('[1]', '[2]', { arrayKeys: ['/tools=name'], names: ['a.json', 'b.json'] });
if (compared.ok) seen.push(compared.equal, compared.patch.map((op) => op.op), compared.unified);

seen.push(lintSnapshot('s.json', '{}').diagnostics.length);
const changed = changes('old.json', '{}', 'new.json', '{}');
seen.push(changed.report.required, changed.markdown);
seen.push(call('s.json', '{}', 'tool', 'args.json', '{}').report.valid);
const doc = explain('AP209');
seen.push(doc.ok ? doc.rule.doc.what : doc.error.message, rules()[0]?.code);
seen.push(limits().maxEntries);

const parsed: Settings | undefined = Settings.parse('apcheck.toml', 'ignore = ["AP314"]');
const settings = (parsed ?? new Settings()).withFlags({ select: ['AP2'], severity: ['AP205=error'] });
seen.push(settings.excludes('plugins/a'), settings.baseline, settings.show());
const configured = renderCheck(
  [{ name: 'demo', package: new Package(), settings, relativeRoot: 'plugins/demo', baseline: { text: '{}', file: 'b.json' } }],
  { format: 'json' },
);
seen.push(configured.reports[0]?.summary.ignored);
const fixedRun = renderCheck([{ name: 'demo', package: new Package() }], {
  format: 'text',
  quiet: true,
  fix: { unsafe: true, write: (root: number, file: string, text: string) => seen.push(root, file, text.length) },
});
seen.push(fixedRun.fixed?.summary, renderCheck([], { format: 'text', fix: { diff: true, terminal: false } }).output);
seen.push(new Settings().withFlags({ extensionsNamespace: 'com.example.client' }).show());
settings.free();

const loaded = loadSettings('.', { config: 'apcheck.toml', ignore: ['AP3'] });
seen.push(loaded.file, relativeTo(loaded.base, '.'), findRoots('.', loaded).roots.length);

const roots = findRoots('.');
const fromDisk: PackageReport = checkDirectory(roots.roots[0]?.dir ?? '.');
readPackage('.', limits()).free();
seen.push(fromDisk.root, roots.collection);
