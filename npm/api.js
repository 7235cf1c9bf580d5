// The typed API over the wasm exports (see index.d.ts): objects in, objects
// out. The wasm speaks JSON text; this is the one place it is parsed.
import * as wasm from './wasm/apcheck.js';

const encoder = new TextEncoder();

function bytes(contents) {
  return typeof contents === 'string' ? encoder.encode(contents) : contents;
}

/** A plugin root as data: files, directories, links and the rest, as `lstat` sees them. */
export class Package {
  /** @internal */
  tree = new wasm.PackageTree();

  addFile(path, contents) {
    this.tree.addFile(path, bytes(contents));
    return this;
  }
  addDirectory(path) {
    this.tree.addDir(path);
    return this;
  }
  addSymlink(path, target) {
    this.tree.addSymlink(path, target);
    return this;
  }
  addOther(path, description) {
    this.tree.addOther(path, description);
    return this;
  }
  addUnreadable(path, reason) {
    this.tree.addUnreadable(path, reason);
    return this;
  }
  markUnlisted(dir, reason) {
    this.tree.markUnlisted(dir, reason);
    return this;
  }
  markAbsent(path) {
    this.tree.markAbsent(path);
    return this;
  }
  markTruncated(path, realSize) {
    this.tree.markTruncated(path, realSize);
    return this;
  }
  markOmitted(path, limit) {
    this.tree.markOmitted(path, limit);
    return this;
  }
  check(rootName = '') {
    return JSON.parse(this.tree.check(rootName));
  }
  fixAll(rootName = '', { includeUnsafe = false } = {}) {
    return JSON.parse(this.tree.fixAll(rootName, includeUnsafe));
  }
  buildSnapshot(rootName, tools = {}) {
    // The wasm sends the snapshot once, as its text; the value is parsed from it here.
    const { summary, ...built } = JSON.parse(this.tree.buildSnapshot(rootName, JSON.stringify(tools)));
    return built.ok ? { ok: true, snapshot: JSON.parse(built.text), text: built.text } : built;
  }
  lintSnapshot(snapshotName, snapshotText) {
    return JSON.parse(this.tree.checkSnapshot(snapshotName, snapshotText));
  }
  drift(rootName, snapshotName, snapshotText) {
    return JSON.parse(this.tree.driftSnapshot(rootName, snapshotName, snapshotText));
  }
  /** Frees the wasm memory now rather than when the object is collected. */
  free() {
    this.tree.free();
  }
}

export function packageFromFiles(files) {
  const pkg = new Package();
  for (const [path, contents] of Object.entries(files)) pkg.addFile(path, contents);
  return pkg;
}

export function checkFiles(rootName, files) {
  const pkg = packageFromFiles(files);
  try {
    return pkg.check(rootName);
  } finally {
    pkg.free();
  }
}

/**
 * Which findings a check shows, and at what severity: an `apcheck.toml` (or
 * `[tool.apcheck]`) parsed by the same core as the Rust CLI's, with the
 * command line's flags on top. `new Settings()` is the defaults.
 */
export class Settings {
  /** @internal */
  inner;

  constructor(inner = new wasm.CheckSettings()) {
    this.inner = inner;
  }
  static parse(file, text) {
    const inner = wasm.CheckSettings.parse(file, text);
    return inner === undefined ? undefined : new Settings(inner);
  }
  withFlags({ select = [], extendSelect = [], ignore = [], severity = [], extensionsNamespace } = {}) {
    return new Settings(this.inner.withFlags(select, extendSelect, ignore, severity, extensionsNamespace));
  }
  excludes(path) {
    return this.inner.excludes(path);
  }
  get baseline() {
    return this.inner.baseline;
  }
  show() {
    return this.inner.show();
  }
  free() {
    this.inner.free();
  }
}

/** `renderCheck`'s option for a caller that never reads `reports` (they are `[]`): the CLI's, not the API's. */
const NO_REPORTS = Symbol.for('apcheck.noReports');

export function renderCheck(roots, options) {
  // The reports as data, unless the caller (the CLI, which prints `output`
  // only) says it has no use for them: serialized by the wasm and parsed here,
  // they were a tenth of a large package's check.
  const reportsOf = (run) => (options[NO_REPORTS] ? [] : roots.map((_, index) => JSON.parse(run.report(index))));
  const run = new wasm.CheckRun();
  const defaults = new wasm.CheckSettings();
  try {
    for (const { name, package: pkg, settings, relativeRoot = '' } of roots) {
      run.add(name, pkg.tree, settings?.inner ?? defaults, relativeRoot);
    }
    let fixed;
    if (options.fix !== undefined) {
      const { unsafe = false, diff = false, terminal = false, write } = options.fix;
      const answer = JSON.parse(run.fix(unsafe, diff, terminal, options.quiet ?? false));
      if (diff) {
        const reports = reportsOf(run);
        return { output: answer.diff, reports, fails: answer.changes, fixed: { summary: answer.summary } };
      }
      // Written in order, as the Rust CLI writes them; a write that throws ends the run there.
      for (const { root, file, text } of answer.writes) write?.(root, file, text);
      fixed = { summary: answer.summary };
    }
    try {
      // Read after the fixes are written, as the Rust CLI reads them (`baseline` may be a getter).
      roots.forEach((root, index) => {
        const { baseline } = root;
        if (baseline === undefined) return;
        try {
          run.applyBaseline(index, baseline.text);
        } catch (error) {
          throw baseline.file === undefined ? error : new Error(`${baseline.file}: ${error.message}`);
        }
      });
    } catch (error) {
      // The files are written: the caller still says so before the failure.
      if (fixed !== undefined) error.fixed = fixed;
      throw error;
    }
    const reports = reportsOf(run);
    if (options.baselineWrite !== undefined) {
      const baseline = JSON.parse(run.baselineWrite(options.baselineWrite));
      return { output: '', reports, fails: false, baseline, fixed };
    }
    let output;
    if (options.statistics) {
      if (options.format !== 'text' && options.format !== 'json') {
        throw new TypeError(`statistics are text or json, not ${JSON.stringify(options.format)}`);
      }
      output = run.statistics(options.format === 'json');
    } else {
      output = run.render(options.format, options.color ?? false, options.sarifBase, options.quiet ?? false);
    }
    if (output === undefined) throw new TypeError(`unknown format ${JSON.stringify(options.format)}`);
    const fails = options.exitZero ? run.failsWithExitZero() : run.fails(options.denyWarnings ?? false);
    return { output, reports, fails, fixed };
  } finally {
    defaults.free();
    run.free();
  }
}

export function applyEdits(text, edits) {
  return JSON.parse(wasm.applyEdits(text, JSON.stringify(edits)));
}

export function format(text, options = {}) {
  return JSON.parse(wasm.format_json(text, JSON.stringify(options)));
}

export function validate(instance, schema, options = {}) {
  if (typeof schema === 'string') return JSON.parse(wasm.validate_json(instance, schema, JSON.stringify(options)));
  return JSON.parse(wasm.validate_json(instance, '', JSON.stringify({ ...options, builtin: schema.builtin })));
}

export function builtinSchemas() {
  return JSON.parse(wasm.builtin_schemas()).schemas;
}

export function diff(a, b, options = {}) {
  return JSON.parse(wasm.diff_json(a, b, JSON.stringify(options)));
}

export function lintSnapshot(snapshotName, snapshotText) {
  return JSON.parse(wasm.snapshot_lint(snapshotName, snapshotText));
}

export function changes(oldName, oldText, newName, newText) {
  return JSON.parse(wasm.snapshot_changes(oldName, oldText, newName, newText));
}

export function call(snapshotName, snapshotText, tool, argumentsName, argumentsText) {
  return JSON.parse(wasm.snapshot_call(snapshotName, snapshotText, tool, argumentsName, argumentsText));
}

export function rules() {
  return JSON.parse(wasm.rules());
}

export function explain(codeOrName) {
  return JSON.parse(wasm.explain(codeOrName));
}

export function limits() {
  const raw = JSON.parse(wasm.limits());
  return { maxEntries: raw.max_entries, maxFileBytes: raw.max_file_bytes, maxTotalBytes: raw.max_total_bytes };
}
