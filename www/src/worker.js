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
import { readZip, ZipError } from './zip.js';

let ready;

function decodeBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function inflate(bytes) {
  const stream = new XzReadableStream(new Blob([bytes]).stream());
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function loadCore() {
  ready ??= inflate(decodeBase64(wasmXzBase64)).then((wasm) => initWasm({ module_or_path: wasm }));
  return ready;
}

// Exports that take and return JSON text, callable by name. Anything else is refused.
const TEXT_EXPORTS = [
  'rules',
  'explain',
  'limits',
  'format_json',
  'validate_json',
  'diff_json',
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

/** Builds the package tree of a drop, a pick or a zip, reporting progress while reading. */
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
  return tree;
}

// What can be asked of a package tree, beyond the check.
const PACKAGE_ACTIONS = {
  check: (tree, { root }) => tree.checkRendered(root),
  build: (tree, { root, tools }) => tree.buildSnapshot(root, JSON.stringify(tools ?? {})),
  drift: (tree, { root, snapshotName, snapshotText }) => tree.driftSnapshot(root, snapshotName, snapshotText),
  lint: (tree, { snapshotName, snapshotText }) => tree.checkSnapshot(snapshotName, snapshotText),
};

async function withPackage(args, progress) {
  const action = PACKAGE_ACTIONS[args.action ?? 'check'];
  if (!action) throw new Error(`unknown package action ${args.action}`);
  const tree = await buildTree(args, progress);
  try {
    return JSON.parse(action(tree, args));
  } finally {
    tree.free();
  }
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

async function handle({ op, args }, progress) {
  await loadCore();
  if (op === 'check') return withPackage(args, progress);
  if (op === 'call' && TEXT_EXPORTS.includes(args.name) && typeof core[args.name] === 'function') {
    return JSON.parse(core[args.name](...args.params));
  }
  throw new Error(`unknown request ${op} ${args?.name ?? ''}`);
}

function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

const inWorker = typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope;
if (inWorker) {
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
