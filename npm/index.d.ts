// Types for every export of the `apcheck` npm package. The shapes are the
// Rust core's serde shapes (the same JSON as `apcheck check --format json`).

export type Severity = 'error' | 'warning' | 'info';

/** A half-open byte range into one file. */
export interface Span {
  start: number;
  end: number;
}

/** One finding: a stable rule code, where, what, the spec section and how to fix it. */
export interface Diagnostic {
  code: string;
  severity: Severity;
  /** Package-relative path of the file the finding is about. */
  file: string | null;
  /** RFC 6901 JSON Pointer (for YAML frontmatter, the key path) inside `file`. */
  pointer: string | null;
  /** 1-based; columns count Unicode scalar values. */
  line: number | null;
  column: number | null;
  end_line: number | null;
  end_column: number | null;
  span: Span | null;
  message: string;
  /** The section the rule enforces, e.g. `Agent Plugins §5.5`. */
  spec: string;
  hint: string | null;
  /** Edits that fix the finding, when the rule can offer them. */
  fix: Fix | null;
}

/** Replace the bytes `span` of `file` (package-relative) with `replacement`. */
export interface Edit {
  file: string;
  span: Span;
  replacement: string;
}

export interface Fix {
  /** What the fix does, in one imperative line. */
  message: string;
  /** `safe` keeps what the author meant (`apcheck check --fix` applies it); `unsafe` guesses. */
  applicability: 'safe' | 'unsafe';
  /** Non-overlapping edits, in any order. */
  edits: Edit[];
}

/** `text` with the edits of one file applied (a diagnostic's `fix.edits` for that file). */
export function applyEdits(text: string, edits: Edit[]): { ok: true; text: string } | { ok: false; error: { message: string } };

export type PluginState = 'loaded' | 'rejected';
export type SkillsState = 'absent' | 'valid' | 'invalid' | 'not-loaded';
export type SkillState = 'discovered' | 'skipped';
export type McpState = 'absent' | 'loaded' | 'disabled' | 'not-loaded';
export type ServerState = 'valid' | 'invalid';

/** What a conformant client would load from one plugin root, and why. */
export interface PackageReport {
  root: string;
  plugin: {
    state: PluginState;
    name: string | null;
    version: string | null;
    description: string | null;
    /** The Agent Plugins version `$schema` selects (`"1.0.0"`), if supported. */
    spec: string | null;
  };
  skills: {
    state: SkillsState;
    entries: Array<{
      dir: string;
      name: string | null;
      description: string | null;
      path: string;
      state: SkillState;
      reason: string | null;
      tokens: { metadata: number; body: number };
    }>;
  };
  mcp: {
    state: McpState;
    servers: Array<{
      id: string;
      type: string | null;
      state: ServerState;
      reason: string | null;
      command: string | null;
      url: string | null;
    }>;
  };
  /** Sorted by file, then position, then code. */
  diagnostics: Diagnostic[];
  summary: {
    errors: number;
    warnings: number;
    infos: number;
    skills_discovered: number;
    skills_skipped: number;
    servers_valid: number;
    servers_invalid: number;
    /** Findings the settings hid (`ignore`, `severity = "off"`); not counted above. */
    ignored: number;
    /** Findings hidden because the baseline records them; not counted above. */
    baselined: number;
  };
}

/** A mistake in the input (not a finding): JSON that does not parse, an unknown option. */
export interface InputError {
  message: string;
  line?: number;
  column?: number;
  offset?: number;
  /** Which input: `input`, `instance`, `schema`, `a`, `b`. */
  document?: string;
  [detail: string]: unknown;
}

export type Result<T> = ({ ok: true } & T) | { ok: false; error: InputError };

export type Contents = string | Uint8Array;

/** A plugin root as data: every entry as `lstat` would describe it. Links are resolved inside the package (§4.1). */
export class Package {
  addFile(path: string, contents: Contents): this;
  addDirectory(path: string): this;
  addSymlink(path: string, target: string): this;
  /** A FIFO, socket or device; `description` says which (`"a FIFO"`). */
  addOther(path: string, description: string): this;
  addUnreadable(path: string, reason: string): this;
  /** A directory (`""` for the root) that exists but could not be listed: its entries are known only where looked up by name. */
  markUnlisted(dir: string, reason: string): this;
  /** A path in a directory that could not be listed, looked up by name: it does not exist. */
  markAbsent(path: string): this;
  markTruncated(path: string, realSize: number): this;
  markOmitted(path: string, limit: string): this;
  check(rootName?: string): PackageReport;
  /** Applies every fix the check offers (safe ones, unless `includeUnsafe`), re-checking until none is left; the package is updated. */
  fixAll(rootName?: string, options?: { includeUnsafe?: boolean }): { applied: number; changed: Array<{ file: string; text: string }> };
  /** The capability snapshot a client would hold; `tools` maps a server id to its `tools/list` capture text. */
  buildSnapshot(rootName: string, tools?: Record<string, string>): SnapshotResult;
  /** Lints a snapshot with this package at hand. */
  lintSnapshot(snapshotName: string, snapshotText: string): LintResult;
  /** Compares a snapshot with this package and says which side to fix. */
  drift(rootName: string, snapshotName: string, snapshotText: string): DriftResult;
  /** Frees the wasm memory now rather than when the object is collected. */
  free(): void;
}

export function packageFromFiles(files: Record<string, Contents>): Package;
export function checkFiles(rootName: string, files: Record<string, Contents>): PackageReport;

export type CheckFormat = 'text' | 'json' | 'sarif' | 'github' | 'markdown';

export interface RenderOptions {
  format: CheckFormat;
  /** ANSI colours in `text`. Default false. */
  color?: boolean;
  /** The directory relative root names are relative to, for SARIF URIs. */
  sarifBase?: string;
  /** Warnings fail the run too. */
  denyWarnings?: boolean;
  /** `--quiet`: the findings and nothing else, no summary lines. Default false. */
  quiet?: boolean;
  /** `--statistics`: how many findings each rule made, instead of the findings (`format` text or json). */
  statistics?: boolean;
  /** `--exit-zero`: `fails` only when a check is incomplete, never for findings or a rejected plugin. */
  exitZero?: boolean;
  /**
   * `--baseline-write FILE`: nothing is rendered (`output` is `''`); `baseline` is the baseline to
   * write to FILE and the line saying so, or, when a check is incomplete, the lines refusing to.
   */
  baselineWrite?: string;
  /**
   * `--fix`, `--unsafe-fixes` or `--diff`, as `apcheck check` runs them: each root's fixes
   * (safe ones only unless `unsafe`), applied and re-checked until none is left. With `diff`
   * nothing is written: `output` is the unified diff (escaped line by line when `terminal`),
   * `fails` whether there is any change. Otherwise `write` is called for each file to change,
   * in order (`root` the index into `roots`, `file` relative to that root); when it throws,
   * `renderCheck` throws (without `write`, nothing is written). The reports and `output` are
   * then those of the fixed files.
   */
  fix?: {
    unsafe?: boolean;
    diff?: boolean;
    terminal?: boolean;
    write?: (root: number, file: string, text: string) => void;
  };
}

/** The command line's rule flags, as `apcheck check` takes them. */
export interface RuleFlags {
  /** Show only these rules, by code or prefix (`['AP2', 'AP314']`); replaces the configuration's `select`. */
  select?: string[];
  /** Show these rules too. */
  extendSelect?: string[];
  /** Hide these rules. */
  ignore?: string[];
  /** Re-level rules: `['AP205=error', 'AP314=off']`. */
  severity?: string[];
  /** `--extensions-namespace`: where the unsafe fix moves a vendor `hooks` key (`com.example.client`). */
  extensionsNamespace?: string;
}

/**
 * Which findings a check shows, and at what severity: an `apcheck.toml` (or
 * `[tool.apcheck]` in `pyproject.toml`) with the rule flags on top, parsed
 * and merged by the same core as the Rust CLI's. `new Settings()` is the defaults.
 */
export class Settings {
  constructor();
  /**
   * The settings of the configuration `text`, read from `file` (used in error
   * messages, and to tell `pyproject.toml` apart): `undefined` for a
   * `pyproject.toml` without `[tool.apcheck]`. Throws an `Error` whose message
   * is `file:line:col: what is wrong`.
   */
  static parse(file: string, text: string): Settings | undefined;
  /** New settings with the flags on top; throws for a code that names no rule. */
  withFlags(flags: RuleFlags): Settings;
  /** Whether a collection leaves out the root at `path`, relative to the configuration's directory. */
  excludes(path: string): boolean;
  /** The configuration's `baseline` file, relative to the configuration's directory. */
  readonly baseline: string | undefined;
  /** The merged settings with where each value came from (`apcheck config --show`). */
  show(): string;
  /** Frees the wasm memory now rather than when the object is collected. */
  free(): void;
}

/** One root for `renderCheck`. */
export interface CheckRoot {
  name: string;
  package: Package;
  /** What is shown and how (default: every rule at its own severity). */
  settings?: Settings;
  /** The root relative to the configuration's directory, `/`-separated, for its `[[overrides]]` globs. Default `''`. */
  relativeRoot?: string;
  /** A baseline (`apcheck check --baseline-write`): the findings it records are hidden. `file` names it in errors. */
  baseline?: { text: string; file?: string };
}

/** Checks each root and renders them together, exactly as `apcheck check --format …` prints them. */
export function renderCheck(
  roots: CheckRoot[],
  options: RenderOptions,
): {
  output: string;
  reports: PackageReport[];
  fails: boolean;
  /** With `baselineWrite` only: `text` to write and the `recorded` line for stderr, or the `refused` lines (exit 2). */
  baseline?: { text: string; recorded: string } | { refused: string };
  /**
   * With `fix` only: the closing line for standard error (`apcheck: applied 2 fixes in 1 file`,
   * `''` with `quiet`; with `diff`, `apcheck: 2 fixes would change 1 file`). An error thrown
   * after the files were written (a baseline that does not parse) carries it as `fixed` too.
   */
  fixed?: { summary: string };
};

export interface FormatOptions {
  indent?: 2 | 4 | 'tab';
  minify?: boolean;
  sortKeys?: boolean;
  /** Accept comments and trailing commas. */
  jsonc?: boolean;
}
/** Pretty-prints or minifies JSON, keeping number and string text exactly as written. */
/** A member whose key appeared earlier in the same object: JSON keeps the last one (RFC 8259 §4). Byte offsets in the input. */
export interface DuplicateKey {
  pointer: string;
  start: number;
  end: number;
}

export function format(text: string, options?: FormatOptions): Result<{ text: string; duplicates: DuplicateKey[] }>;

export interface ValidationIssue {
  instance_pointer: string;
  schema_location: string;
  keyword: string;
  message: string;
  line: number;
  column: number;
  span: Span;
  element?: { pointer: string; index: number; name?: string };
}
export interface ValidateOptions {
  /** Check `format` keywords too. */
  formats?: boolean;
  /** Schemas the main one `$ref`s, by name. */
  refs?: Array<{ name: string; text: string }>;
}
/** Validates `instance` (JSON text) against a schema's text, or a built-in schema by name (see `builtinSchemas`). */
export function validate(
  instance: string,
  schema: string | { builtin: string },
  options?: ValidateOptions,
): Result<{ valid: boolean; dialect: string; issues: ValidationIssue[] }>;
export function builtinSchemas(): Array<{ name: string; description: string }>;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export interface DiffChange {
  kind: 'added' | 'removed' | 'changed' | 'moved';
  path: string;
  old_path?: string;
  /** `path` with keyed elements named: `/tools[name=echo]/description`. */
  label: string;
  old?: JsonValue;
  new?: JsonValue;
  old_line?: number;
  new_line?: number;
}
export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move';
  path: string;
  from?: string;
  value?: JsonValue;
}
export interface DiffOptions {
  /** `"/tools=name"`: match the elements of an array by a key. */
  arrayKeys?: string[];
  noDefaultKeys?: boolean;
  /** Pointers (with `*`) left out of the comparison. */
  ignore?: string[];
  /** The names the unified diff shows. */
  names?: [string, string];
}
/** A keyed structural diff, with an RFC 6902 patch, an RFC 7386 merge patch and a unified text diff. */
export function diff(
  a: string,
  b: string,
  options?: DiffOptions,
): Result<{
  equal: boolean;
  summary: { added: number; removed: number; changed: number; moved: number };
  changes: DiffChange[];
  patch: PatchOperation[];
  merge: JsonValue;
  unified: string;
}>;

export interface Snapshot {
  $schema?: string;
  plugin: { name: string; version?: string; spec: string; extensions?: Record<string, JsonValue> };
  skills: Array<{ name: string; description: string; path: string; loaded: 'metadata'; extensions?: Record<string, JsonValue> }>;
  mcpServers: Array<{
    id: string;
    type?: string;
    status: 'connected' | 'failed' | 'skipped' | 'not-connected';
    protocolVersion?: string;
    reason?: string;
    extensions?: Record<string, JsonValue>;
  }>;
  tools: Array<{ name: string; server: string; [field: string]: JsonValue }>;
  extensions?: Record<string, JsonValue>;
}
export type SnapshotResult = { ok: true; snapshot: Snapshot; text: string } | { ok: false; error: { message: string } };

export interface LintResult {
  ok: true;
  /** Whether the text is a snapshot at all (it may still have findings). */
  valid: boolean;
  diagnostics: Diagnostic[];
}
/** Lints a capability snapshot on its own. */
export function lintSnapshot(snapshotName: string, snapshotText: string): LintResult;

export interface DriftResult {
  ok: true;
  report: {
    rows: Array<{ code: string; subject: string; snapshot: string | null; package: string | null; fix: 'snapshot' | 'package' }>;
    diagnostics: Diagnostic[];
  };
  markdown: string;
}

export type SemverLevel = 'patch' | 'minor' | 'major';
export interface ChangesResult {
  ok: true;
  report: {
    old_version: string | null;
    new_version: string | null;
    changes: Array<{ kind: string; subject: string; level: SemverLevel; detail: string }>;
    /** The bump the changes require (§10.2), and the one the versions show. */
    required: SemverLevel | null;
    bump: SemverLevel | null;
    diagnostics: Diagnostic[];
  };
  markdown: string;
}
/** The change report between two snapshots, held against the version bump. */
export function changes(oldName: string, oldText: string, newName: string, newText: string): ChangesResult;

export interface CallResult {
  ok: true;
  report: { tool: string | null; valid: boolean; diagnostics: Diagnostic[] };
}
/** `tools/call` arguments checked against a tool's `inputSchema` in a snapshot. */
export function call(
  snapshotName: string,
  snapshotText: string,
  tool: string,
  argumentsName: string,
  argumentsText: string,
): CallResult;

export type RuleExample =
  | { kind: 'package'; files: Array<[string, string]> }
  | { kind: 'package-with-links'; files: { files: Array<[string, string]>; links: Array<[string, string]> } }
  | { kind: 'described'; files: string }
  | { kind: 'snapshot'; files: string }
  | { kind: 'drift'; files: { snapshot: string; files: Array<[string, string]> } }
  | { kind: 'changes'; files: { old: string; new: string } }
  | { kind: 'call'; files: { snapshot: string; tool: string; arguments: string } };
export interface Rule {
  code: string;
  name: string;
  severity: Severity;
  spec: string;
  summary: string;
  fix_hint: string | null;
  doc: { what: string; why: string; failing: RuleExample; fixed: RuleExample };
}
/** Every rule, in code order. */
export function rules(): Rule[];
/** One rule's doc by code or name; `text` is what `apcheck explain` prints. */
export function explain(codeOrName: string): { ok: true; rule: Rule; text: string } | { ok: false; error: { message: string } };

export interface Limits {
  maxEntries: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}
/** The limits the CLI applies while reading a root. */
export function limits(): Limits;

// Node only (the `node` export condition): reading from disk.

/** Reads a plugin root from disk with lstat/readlink, as the Rust CLI does. Node only. */
export function readPackage(root: string, limits?: Limits): Package;
/** Reads and checks a plugin root. Node only. */
export function checkDirectory(root: string, name?: string): PackageReport;
/** The settings a check of `path` uses, and the directory the configuration's paths are relative to. */
export interface LoadedSettings {
  settings: Settings;
  /** The configuration file's directory (real path); the working directory without one. */
  base: string;
  /** The configuration file used, if any. */
  file?: string;
}
/**
 * The settings `apcheck check PATH` uses: the `apcheck.toml` or `pyproject.toml`
 * (with `[tool.apcheck]`) found by walking up from `path`, or `config` instead,
 * with the rule flags on top. Throws the CLI's message for an unreadable or bad one. Node only.
 */
export function loadSettings(path: string, flags?: RuleFlags & { config?: string }): LoadedSettings;
/** `path` relative to `base` (both resolved), `/`-separated: a root's `relativeRoot`. Node only. */
export function relativeTo(base: string, path: string): string;
/**
 * The plugin roots a path names (one root, or a collection such as a
 * marketplace repository), leaving out what `loaded`'s `exclude` globs match. Node only.
 */
export function findRoots(
  path: string,
  loaded?: LoadedSettings,
): { roots: Array<{ dir: string; name: string }>; collection: boolean };
