// The page's side of the worker: requests (answered in order), progress
// callbacks, and cancel (which ends the worker; the next request starts a new one).
// A batch of documents to validate is also shared with a few more workers, one
// per core (see `validateBatch`).

import { packBatch, sliceBatch } from './batch.js';

const embeddedWorker = () => document.getElementById('apcheck-worker');

/** Where the core runs: 'worker' (served page or blob worker) or 'main-thread' (fallback). */
export let coreMode = 'worker';

let worker = null;
let nextId = 1;
const pending = new Map();

let blobUrl = null;

function workerUrl() {
  const embedded = embeddedWorker();
  if (!embedded) return 'build/worker.js';
  // One Blob URL for every worker this page starts (a cancel starts a new one).
  blobUrl ??= URL.createObjectURL(new Blob([embedded.textContent], { type: 'text/javascript' }));
  return blobUrl;
}

function settleAll(error) {
  for (const { reject } of pending.values()) reject(error);
  pending.clear();
}

/** A worker on the shared `pending` map; `fallBack`: under file://, a refusal moves the core in-process. */
function startWorker(fallBack = true) {
  const started = new Worker(workerUrl());
  started.onmessage = ({ data }) => {
    const job = pending.get(data.id);
    if (!job) return;
    if (data.progress) return job.onProgress?.(data.progress);
    pending.delete(data.id);
    if (data.ok) job.resolve(data.result);
    else job.reject(new Error(data.error));
    if (data.fatal) {
      settleAll(new Error('the core stopped on an internal error; it has been restarted'));
      stopWorker();
      stopBatchWorkers();
    }
  };
  started.onerror = (event) => {
    event.preventDefault();
    // A blob worker refused under file:// fails before answering anything: run in-process instead.
    if (fallBack && embeddedWorker() && coreMode === 'worker') {
      const waiting = [...pending.entries()];
      pending.clear();
      stopWorker();
      switchToMainThread().then(() => {
        for (const [, job] of waiting) request(job.op, job.args, job.onProgress).then(job.resolve, job.reject);
      });
      return;
    }
    settleAll(new Error(event.message || 'the worker stopped'));
    stopWorker();
    stopBatchWorkers();
  };
  return started;
}

function stopWorker() {
  worker?.terminate();
  worker = null;
}

let inProcessLoading = null;

function switchToMainThread() {
  coreMode = 'main-thread';
  document.documentElement.dataset.core = coreMode;
  inProcessLoading ??= new Promise((resolve) => {
    const script = document.createElement('script');
    script.textContent = embeddedWorker().textContent;
    document.head.append(script);
    resolve(globalThis.apcheckInProcess);
  });
  return inProcessLoading;
}

/** Sends one request to the core (moving `transfer`'s buffers); resolves with its result. */
export function request(op, args, onProgress, transfer = []) {
  return requestOn(null, op, args, onProgress, transfer);
}

/** `request` on the page's worker (`on` null) or on batch worker `on`, with `transfer` moved, not copied. */
async function requestOn(on, op, args, onProgress, transfer = []) {
  if (coreMode === 'main-thread') {
    const core = await switchToMainThread();
    return core.handle({ op, args }, (state) => onProgress?.(state));
  }
  if (!worker && on === null) {
    try {
      worker = startWorker();
    } catch {
      if (!embeddedWorker()) throw new Error('this browser refused to start the worker');
      await switchToMainThread();
      return request(op, args, onProgress);
    }
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, onProgress, op, args });
    (on ?? worker).postMessage({ id, op, args }, transfer);
  });
}

// ---- batches across workers ----
//
// Validating many documents is the one job that splits cleanly: each document
// is judged alone against the same schema. So a batch goes to the page's worker
// and to up to MAX_BATCH_WORKERS - 1 more, in contiguous slices of about equal
// size, and their replies are put back together in order. A batch worker is
// used only once it has loaded the core (a cold one would take longer to start
// than its slice takes), so the first big batch starts them and runs on the
// page's worker alone, and a cancel ends them with every other job.

const MAX_BATCH_WORKERS = 4;
// Below this many UTF-16 units of text a slice costs more to send and merge than it saves.
const MIN_SLICE_UNITS = 256 * 1024;

/** Batch workers: `{worker, ready}`, `ready` true once its core answered. */
let batchWorkers = [];

function stopBatchWorkers() {
  for (const { worker: started } of batchWorkers) started.terminate();
  batchWorkers = [];
}

/**
 * Starts the batch workers this device has cores for (none in the main-thread
 * fallback); resolves, once every one of them has loaded the core, with how
 * many workers a big batch is shared by (the page's own included).
 */
export function warmBatchWorkers() {
  if (coreMode !== 'worker') return Promise.resolve(1);
  const wanted = Math.min(navigator.hardwareConcurrency || 1, MAX_BATCH_WORKERS) - 1;
  while (batchWorkers.length < wanted) {
    let started;
    try {
      started = startWorker(false);
    } catch {
      break; // The page's own worker still takes every batch.
    }
    const entry = { worker: started, ready: false };
    entry.loading = requestOn(entry.worker, 'call', { name: 'limits', params: [] }).then(
      () => (entry.ready = true),
      () => {}, // Cancelled or failed: never used, and gone from the pool.
    );
    batchWorkers.push(entry);
  }
  return Promise.all(batchWorkers.map((entry) => entry.loading)).then(() => 1 + batchWorkers.filter((entry) => entry.ready).length);
}

/**
 * Validates every text of `texts` against one schema (`schemaText` and
 * `optionsJson` as `validate_json_batch` takes them): resolves with that
 * export's reply, `{ok, dialect, valid, invalid, failures}`, each failure's
 * `index` its position in `texts`, however many workers shared the batch, and
 * `workers`, how many did.
 */
export async function validateBatch(texts, schemaText, optionsJson) {
  let total = 0;
  for (const text of texts) total += text.length;
  if (total >= 2 * MIN_SLICE_UNITS) warmBatchWorkers();
  const helpers = batchWorkers.filter((entry) => entry.ready).slice(0, Math.max(0, Math.floor(total / MIN_SLICE_UNITS) - 1));
  const lanes = [null, ...helpers.map((entry) => entry.worker)];
  const parts = sliceBatch(texts, lanes.length);
  const replies = await Promise.all(
    parts.map(({ texts: part }, lane) => {
      const { joined, lengths } = packBatch(part);
      const params = [joined, lengths, schemaText, optionsJson];
      const args = { name: 'validate_json_batch', params, text: true };
      return requestOn(lanes[lane], 'call', args, undefined, [lengths.buffer]).then((reply) => JSON.parse(reply));
    }),
  );
  // A refused request (a schema that does not compile) is refused alike by every worker.
  const refused = replies.find((reply) => !reply.ok);
  if (refused) return refused;
  const merged = { ...replies[0], valid: 0, invalid: 0, unchecked: 0, failures: [], workers: parts.length };
  replies.forEach((reply, lane) => {
    merged.valid += reply.valid;
    merged.invalid += reply.invalid;
    merged.unchecked += reply.unchecked;
    for (const failure of reply.failures) merged.failures.push({ ...failure, index: failure.index + parts[lane].start });
  });
  return merged;
}

/** Calls a wasm export that takes and returns JSON text. */
export function call(name, ...params) {
  return request('call', { name, params });
}

/** Ends every running job: their promises reject with a CancelledError. */
export function cancelAll() {
  stopWorker();
  stopBatchWorkers();
  const error = new Error('cancelled');
  error.name = 'CancelledError';
  settleAll(error);
}
