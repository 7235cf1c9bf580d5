// The Web Worker: owns the wasm core, so parsing, checking and diffing never
// block the page. Messages: {id, op, args} in; {id, progress} and
// {id, ok, result | error} out. The page cancels a job by ending this worker.
//
// The same code also runs on the main thread (dist/apcheck.html under file://,
// where a browser may refuse workers from blob URLs): there it only defines
// `globalThis.apcheckInProcess` and waits to be asked.

import { XzReadableStream } from 'xz-decompress';
import initWasm, * as core from '../pkg/apcheck.js';
// Base64 of the wasm compressed with xz, put in by scripts/build-web.mjs.
import wasmXzBase64 from 'embedded:apcheck-wasm';
// Base64 of www/src/generated/rule-examples.json compressed the same way: the
// rule examples the page's wasm leaves out (src/rule.rs, `rule_doc!`).
import ruleExamplesXzBase64 from 'embedded:rule-examples';
import { explainWithExamples } from './ruledocs.js';
import { describe, nodeAt, scanJson } from './jsonscan.js';
import { readZip, ZipError } from './zip.js';

let ready;

function decodeBase64(text) {
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function inflate(bytes) {
  const stream = new XzReadableStream(new Blob([bytes]).stream());
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// The inflated wasm is kept in Cache Storage as an `application/wasm`
// response, under a name of its content: the next start (a reload, another
// view's worker, a worker restarted after a cancel) skips inflating and
// compiles it as it streams, and Chromium keeps the compiled code beside a
// wasm response from Cache Storage, so later starts need not compile at all.
// Only a served page (http or https) has Cache Storage; file:// inflates every
// time. The service worker leaves this cache be until a new build replaces it.
/* global WASM_HASH */
const WASM_CACHE = `apcheck-wasm-${WASM_HASH}`;
const canKeepWasm = () => typeof caches !== 'undefined' && /^https?:$/.test(location.protocol);
const keptWasmUrl = () => new URL(`apcheck.${WASM_HASH}.wasm`, location.href).href;

/** The module compiled from the kept wasm, or null when there is none (or it cannot be read). */
async function keptModule() {
  if (!canKeepWasm()) return null;
  try {
    const kept = await caches.match(keptWasmUrl(), { cacheName: WASM_CACHE });
    return kept ? await WebAssembly.compileStreaming(kept) : null;
  } catch {
    return null;
  }
}

function keepWasm(wasm) {
  const response = new Response(wasm, { headers: { 'Content-Type': 'application/wasm' } });
  // Not keeping it (storage full, refused) costs only the next start's inflate.
  return caches
    .open(WASM_CACHE)
    .then((cache) => cache.put(keptWasmUrl(), response))
    .catch(() => {});
}

async function compileCore() {
  if (!canKeepWasm()) return WebAssembly.compile(await inflate(decodeBase64(wasmXzBase64)));
  const kept = await keptModule();
  if (kept) return kept;
  if (!navigator.locks) return (await inflateAndKeep()).module;
  // The page may start several workers at once: one inflates and keeps the wasm
  // while the others wait for it, rather than each paying the inflate. That one
  // has its module once compiled, not once kept: it holds the lock until then.
  return new Promise((resolve, reject) => {
    navigator.locks
      .request(WASM_CACHE, async () => {
        const kept = await keptModule();
        if (kept) return resolve(kept);
        const { module, keeping } = await inflateAndKeep();
        module.then(resolve, reject);
        await Promise.allSettled([module, keeping]);
      })
      .catch(reject);
  });
}

/**
 * Inflates the wasm, then compiles it while keeping it (a streamed compile of
 * the inflating bytes measured slower): `{module, keeping}`, promises.
 */
async function inflateAndKeep() {
  const wasm = await inflate(decodeBase64(wasmXzBase64));
  return { module: WebAssembly.compile(wasm), keeping: keepWasm(wasm) };
}

function loadCore() {
  ready ??= compileCore().then((module) => initWasm({ module_or_path: module }));
  return ready;
}

// Exports that take and return JSON text, callable by name. Anything else is refused.
const TEXT_EXPORTS = [
  'limits',
  'format_json',
  'validate_json',
  'diff_json',
  'locate_json',
  'validate_json_batch',
  'builtin_schemas',
  'snapshot_lint',
  'snapshot_changes',
  'snapshot_call',
  'pasted_skill_path',
];

const READ_BATCH = 64;

/** A zip's entries, read with the limits applied as it inflates (see zip.js). */
async function entriesFromZip(zipFile, limits) {
  try {
    return await readZip(zipFile, limits);
  } catch (error) {
    if (error instanceof ZipError) throw new Error(`${zipFile.name} cannot be read as a zip: ${error.message}`);
    throw error;
  }
}

/** Builds the package tree of a drop, a pick or a zip, reporting progress while reading; `entries` are what was read. */
async function buildTree({ entries, zip }, progress) {
  const limits = JSON.parse(core.limits());
  const tree = new core.PackageTree();
  if (zip) {
    progress({ phase: 'opening the zip', done: 0 });
    let read;
    try {
      read = await entriesFromZip(zip, limits);
    } catch (error) {
      tree.free();
      throw error;
    }
    entries = read.entries;
    for (const { path, reason } of read.omitted) tree.markOmitted(path, reason);
  }
  let totalBytes = 0;
  let done = 0;
  for (let start = 0; start < entries.length; start += READ_BATCH) {
    const batch = entries.slice(start, start + READ_BATCH);
    const contents = await Promise.all(batch.map((entry) => readEntry(entry, limits)));
    batch.forEach((entry, i) => {
      if (done >= limits.max_entries) {
        tree.markOmitted(entry.path, `max_entries (${limits.max_entries})`);
      } else if (entry.kind === 'dir') {
        tree.addDir(entry.path);
      } else if (entry.kind === 'symlink') {
        tree.addSymlink(entry.path, entry.target);
      } else if (totalBytes + contents[i].length > limits.max_total_bytes) {
        tree.markOmitted(entry.path, `max_total_bytes (${limits.max_total_bytes})`);
      } else {
        totalBytes += contents[i].length;
        tree.addFile(entry.path, contents[i]);
        if (contents[i].truncatedFrom !== undefined) tree.markTruncated(entry.path, contents[i].truncatedFrom);
      }
      done++;
    });
    progress({ phase: 'reading', done, total: entries.length });
  }
  progress({ phase: 'checking', done, total: entries.length });
  return { tree, entries };
}

// What can be asked of a package tree, beyond the check.
const PACKAGE_ACTIONS = {
  check: (tree, { root }) => `{"folder":${tree.checkFolder(root)},"reportId":"${WORKER_RUN}:${++lastReportId}"}`,
  build: (tree, { root, tools }) => tree.buildSnapshot(root, JSON.stringify(tools ?? {})),
  drift: (tree, { root, snapshotName, snapshotText }) => tree.driftSnapshot(root, snapshotName, snapshotText),
  lint: (tree, { snapshotName, snapshotText }) => tree.checkSnapshot(snapshotName, snapshotText),
};

// The tree of the last check, kept so that its reports are rendered (JSON,
// SARIF, Markdown) only when a download asks for them; the id says which check it is.
// A restarted worker counts from 0 again: the run token keeps ids apart.
let lastChecked = null;
let lastReportId = 0;
/** The files of the last check when it was a zip (path → bytes), for the page's file viewer. */
let lastZipFiles = null;
const WORKER_RUN = Math.random().toString(36).slice(2);

async function withPackage(args, progress) {
  const actionName = args.action ?? 'check';
  const action = PACKAGE_ACTIONS[actionName];
  if (!action) throw new Error(`unknown package action ${args.action}`);
  const { tree, entries } = await buildTree(args, progress);
  try {
    const answer = JSON.parse(action(tree, args));
    // A zip is read here, not in the page: the page gets its listing, and its files when it opens them.
    if (actionName === 'check' && args.zip) {
      answer.listing = entries.map(({ path, kind, target }) => ({ path, kind, target }));
      lastZipFiles = new Map(entries.filter((entry) => entry.kind === 'file').map((entry) => [entry.path, entry.bytes]));
    }
    return answer;
  } finally {
    if (actionName === 'check') {
      lastChecked?.free();
      lastChecked = tree;
      if (!args.zip) lastZipFiles = null;
    } else {
      tree.free();
    }
  }
}

/** The last check's reports as `format` (json, sarif, markdown): the text, or an Error. */
function renderLast({ format, reportId }) {
  // A cancel ends the worker, and the report with it; a newer check replaces it.
  if (!lastChecked || reportId !== `${WORKER_RUN}:${lastReportId}`) throw new Error('This report is no longer in memory (a newer check or a cancel replaced it): check again.');
  const answer = JSON.parse(lastChecked.render(format));
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.text;
}

/** A file of the last check's zip, as text. */
function zipFile({ reportId, path }) {
  if (!lastZipFiles || reportId !== `${WORKER_RUN}:${lastReportId}`) throw new Error('This zip is no longer in memory (a newer check or a cancel replaced it): check it again.');
  const bytes = lastZipFiles.get(path);
  if (!bytes) throw new Error(`${path} is not a file of the zip`);
  return { text: new TextDecoder().decode(bytes), truncatedFrom: bytes.truncatedFrom };
}

// The JSON trees on screen (the Format result, a package's file): each
// document is scanned once here, and the page asks for a node's children when
// it opens it, so a 5 MB document never crosses to the page whole.
const trees = new Map();
let lastTreeId = 0;
const KEPT_TREES = 4;

function treeOpen({ text }) {
  let root;
  try {
    root = scanJson(text);
  } catch (error) {
    return { ok: false, message: error.message };
  }
  const id = `${WORKER_RUN}:j${++lastTreeId}`;
  trees.set(id, { text, root });
  if (trees.size > KEPT_TREES) trees.delete(trees.keys().next().value);
  return { ok: true, id, root: describe(text, root) };
}

function treeChildren({ id, path, start, end }) {
  const held = trees.get(id);
  if (!held) throw new Error('This tree is no longer in memory (a cancel restarted the core): show it again.');
  const node = nodeAt(held.root, path);
  const children = node.items.slice(start, end).map((child, offset) => ({ key: node.keys?.[start + offset], ...describe(held.text, child) }));
  return { total: node.items.length, children };
}

async function readEntry(entry, limits) {
  if (entry.kind !== 'file') return null;
  if (typeof entry.text === 'string') return new TextEncoder().encode(entry.text);
  if (entry.bytes) return entry.bytes;
  const blob = entry.file.size > limits.max_file_bytes ? entry.file.slice(0, limits.max_file_bytes) : entry.file;
  const bytes = new Uint8Array(await blob.arrayBuffer());
  if (blob !== entry.file) bytes.truncatedFrom = entry.file.size;
  return bytes;
}

// The Diff view's last diff stays here: the page asks for the rows its path
// list shows and for a patch when one is shown or downloaded, so a result of
// 100,000 changes never crosses to the page (or is parsed there) whole.
let lastDiff = null;
let lastDiffId = 0;
const DETAIL_CHARS = 80;

function shortJson(value) {
  if (value === undefined) return '';
  const text = JSON.stringify(value);
  return text.length > DETAIL_CHARS ? `${text.slice(0, DETAIL_CHARS - 3)}…` : text;
}

/** One row of the path list: what the page draws, with values cut short. */
function diffRow(change) {
  const detail =
    change.kind === 'changed' ? `${shortJson(change.old)} → ${shortJson(change.new)}`
    : change.kind === 'added' ? shortJson(change.new)
    : change.kind === 'removed' ? shortJson(change.old)
    : `from ${change.old_path}`;
  const { kind, path, old_path, label, old_line, new_line } = change;
  return { kind, path, old_path, label, old_line, new_line, detail };
}

function currentDiff(id) {
  if (!lastDiff || lastDiff.id !== id) throw new Error('This diff is no longer in memory (a newer diff or a cancel replaced it): press Diff again.');
  return lastDiff;
}

// The parts of a diff the page may show; `small` documents get them with the diff.
const DIFF_PARTS = ['patch', 'merge', 'unified'];

/** Diffs A and B; answers with the summary and the first rows. */
function diffDocuments({ a, b, options, small, first }) {
  const want = ['changes', 'lines', ...(small ? DIFF_PARTS : [])];
  const answer = JSON.parse(core.diff_json(a, b, JSON.stringify({ ...options, want })));
  if (!answer.ok) return answer;
  const id = `${WORKER_RUN}:d${++lastDiffId}`;
  lastDiff = { id, a, b, options, answer };
  const { equal, summary, arrays, located, changes } = answer;
  return { ok: true, id, equal, summary, arrays, located, changeCount: changes.length, rows: changes.slice(0, first).map(diffRow) };
}

/** `part` of the current diff, computed now when the first diff left it out. */
function partOf(diff, part) {
  if (!DIFF_PARTS.includes(part)) throw new Error(`unknown diff part ${part}`);
  if (!(part in diff.answer)) {
    const answer = JSON.parse(core.diff_json(diff.a, diff.b, JSON.stringify({ ...diff.options, want: [part] })));
    if (!answer.ok) throw new Error(answer.error.message);
    diff.answer[part] = answer[part];
  }
  return diff.answer[part];
}

function partText(diff, part) {
  const value = partOf(diff, part);
  if (part === 'unified') return value.text;
  diff.texts ??= {};
  diff.texts[part] ??= JSON.stringify(part === 'merge' ? value.patch : value, null, 2);
  return diff.texts[part];
}

/**
 * A part for the page: `{text}` (and `lossy` for the merge patch) when it is at
 * most `preview` bytes or no preview is asked for; else `{count, bytes}`, its
 * operations to be fetched row by row. The unified diff comes as its first `hunks` hunks.
 */
function diffPart({ id, part, preview, hunks }) {
  const diff = currentDiff(id);
  if (part === 'unified' && hunks !== undefined) {
    const unified = partOf(diff, part);
    return { unified: { hunks: unified.hunks.slice(0, hunks), more: Math.max(0, unified.hunks.length - hunks) } };
  }
  const text = partText(diff, part);
  const lossy = part === 'merge' ? partOf(diff, part).lossy : undefined;
  if (preview === undefined || text.length <= preview) return { text, lossy };
  return { count: operations(diff, part).length, bytes: text.length, lossy };
}

/** A patch as rows: the operations of a JSON Patch, the members of a merge patch. */
function operations(diff, part) {
  const value = partOf(diff, part);
  if (part === 'patch') return value;
  return Object.entries(value.patch ?? {}).map(([key, member]) => ({ [key]: member }));
}

function diffPartRows({ id, part, start, end }) {
  return operations(currentDiff(id), part).slice(start, end).map((op) => {
    const text = JSON.stringify(op);
    return text.length > 400 ? `${text.slice(0, 397)}…` : text;
  });
}

function diffRows({ id, start, end }) {
  return currentDiff(id).answer.changes.slice(start, end).map(diffRow);
}

/** The A and B lines of change `index`, found by the core in the texts (one scan each). */
function diffLocate({ id, index }) {
  const diff = currentDiff(id);
  const change = diff.answer.changes[index];
  if (!change) throw new Error(`no change ${index}`);
  const lineIn = (text, pointer) => JSON.parse(core.locate_json(text, JSON.stringify([pointer]))).lines[0];
  const oldPointer = change.kind === 'added' ? null : change.kind === 'removed' ? change.path : (change.old_path ?? change.path);
  return {
    a: oldPointer === null ? null : lineIn(diff.a, oldPointer),
    b: change.kind === 'removed' ? null : lineIn(diff.b, change.path),
  };
}

// Inflated on the first request for a rule doc, by the Rules view's worker only.
let ruleExamples;
function loadRuleExamples() {
  ruleExamples ??= inflate(decodeBase64(ruleExamplesXzBase64)).then((bytes) => JSON.parse(new TextDecoder().decode(bytes)));
  return ruleExamples;
}

// The core's rule answers. The registry is what the page lists and links
// (code, name, severity, spec, summary): the page asks for it as it starts, and
// is ready once it has it, so it carries no docs; a doc comes from `explain`,
// with the examples the wasm leaves out put back.
const RULE_EXPORTS = {
  rules: () => JSON.parse(core.rules()).map(({ code, name, severity, spec, summary }) => ({ code, name, severity, spec, summary })),
  explain: async (codeOrName) => explainWithExamples(JSON.parse(core.explain(codeOrName)), await loadRuleExamples()),
};

const DIFF_OPS = { diff: diffDocuments, diffRows, diffPart, diffPartRows, diffLocate };
const VIEWER_OPS = { zipFile, treeOpen, treeChildren };

async function handle({ op, args }, progress) {
  await loadCore();
  if (op === 'check') return withPackage(args, progress);
  if (op === 'render') return renderLast(args);
  if (Object.hasOwn(DIFF_OPS, op)) return DIFF_OPS[op](args);
  if (Object.hasOwn(VIEWER_OPS, op)) return VIEWER_OPS[op](args);
  if (op === 'call' && Object.hasOwn(RULE_EXPORTS, args.name)) {
    const reply = await RULE_EXPORTS[args.name](...args.params);
    return args.text ? JSON.stringify(reply) : reply;
  }
  if (op === 'call' && TEXT_EXPORTS.includes(args.name) && typeof core[args.name] === 'function') {
    // `text: true` hands the reply back as the JSON text: one string to copy,
    // where a big reply (a batch's failures) would be cloned object by object.
    const reply = core[args.name](...args.params);
    return args.text ? reply : JSON.parse(reply);
  }
  throw new Error(`unknown request ${op} ${args?.name ?? ''}`);
}

function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

const inWorker = typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope;
if (inWorker) {
  // The core loads as soon as the worker runs, not on the first request: the
  // page starts this worker before its own script has run (www/src/boot.js).
  // A failure is the first request's to report.
  const loading = loadCore();
  // The page's first worker (www/src/boot.js names it) reads the rule registry
  // as soon as the core is loaded, unasked: the page is ready once it has it.
  if (self.name === 'apcheck-early') {
    loading
      .then(() => self.postMessage({ early: 'rules', ok: true, result: RULE_EXPORTS.rules() }))
      .catch((error) => self.postMessage({ early: 'rules', ok: false, error: errorText(error) }));
  } else loading.catch(() => {});
  self.onmessage = async ({ data }) => {
    const progress = (state) => self.postMessage({ id: data.id, progress: state });
    try {
      self.postMessage({ id: data.id, ok: true, result: await handle(data, progress) });
    } catch (error) {
      // A trap (a Rust panic) may leave the wasm instance half-updated: the page starts a fresh worker.
      self.postMessage({ id: data.id, ok: false, error: errorText(error), fatal: error instanceof WebAssembly.RuntimeError });
    }
  };
} else {
  globalThis.apcheckInProcess = { handle, errorText };
}
