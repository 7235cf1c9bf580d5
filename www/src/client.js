// The page's side of the workers: one lane per view, each with its own worker,
// so that a long job in one view never holds up another. Requests on a lane are
// answered in order, with progress callbacks; a lane's cancel ends its worker
// (and only its own), and the lane's next request starts a new one.
// A batch of documents to validate is also shared with a few more workers, one
// per core (see `validateBatch`).

import { packBatch, sliceBatch } from './batch.js';

/* global WORKER_FILE */
const embeddedWorker = () => document.getElementById('apcheck-worker');

/** Where the core runs: 'worker' (served page or blob worker) or 'main-thread' (fallback). */
export let coreMode = 'worker';

let nextId = 1;
let blobUrl = null;

function workerUrl() {
  const embedded = embeddedWorker();
  // The worker's file as the build named it, by a hash of its content.
  if (!embedded) return WORKER_FILE;
  // One Blob URL for every worker this page starts (a cancel starts a new one).
  blobUrl ??= URL.createObjectURL(new Blob([embedded.textContent], { type: 'text/javascript' }));
  return blobUrl;
}

/** Ends `lane`'s worker (and its batch helpers): its waiting requests reject with `error`. */
function stopLane(lane, error) {
  lane.worker?.terminate();
  // The early worker's registry will not come: whoever waits for it asks again.
  lane.worker?.dropRules?.();
  lane.worker = null;
  for (const helper of lane.helpers) stopLane(helper, error);
  lane.helpers = [];
  for (const { reject } of lane.pending.values()) reject(error);
  lane.pending.clear();
}

/** The worker www/src/boot.js started while the page loaded, once, if it is still sound. */
function takeEarlyWorker() {
  const early = globalThis.apcheckEarlyWorker;
  globalThis.apcheckEarlyWorker = null;
  takenEarly = early;
  if (early?.failedEarly) early.terminate();
  return early && !early.failedEarly ? early : null;
}

/**
 * The rule registry the worker www/src/boot.js started reads unasked as soon
 * as its core is loaded (a promise), whichever lane takes that worker; null
 * when there is no such worker (dist/apcheck.html, or refused). It rejects if
 * that worker fails or is ended first.
 */
export function earlyRules() {
  const early = globalThis.apcheckEarlyWorker ?? takenEarly;
  return early && !early.failedEarly ? early.rules : null;
}

// The early worker once a lane has taken it (its registry may still be on its way).
let takenEarly = null;

/** Starts `lane`'s worker; `fallBack`: under file://, a refusal moves the core in-process. */
function startWorker(lane, fallBack = true) {
  const started = (!embeddedWorker() && takeEarlyWorker()) || new Worker(workerUrl());
  started.onmessage = ({ data }) => {
    const job = lane.pending.get(data.id);
    if (!job) return;
    if (data.progress) return job.onProgress?.(data.progress);
    lane.pending.delete(data.id);
    if (data.ok) job.resolve(data.result);
    else job.reject(new Error(data.error));
    if (data.fatal) stopLane(lane, new Error('the core stopped on an internal error; it has been restarted'));
  };
  started.onerror = (event) => {
    event.preventDefault();
    // A blob worker refused under file:// fails before answering anything: run in-process instead.
    if (fallBack && embeddedWorker() && coreMode === 'worker') {
      const waiting = [...lane.pending.values()];
      lane.pending.clear();
      stopLane(lane);
      switchToMainThread().then(() => {
        for (const job of waiting) requestOn(lane, job.op, job.args, job.onProgress).then(job.resolve, job.reject);
      });
      return;
    }
    stopLane(lane, new Error(event.message || 'the worker stopped'));
  };
  lane.worker = started;
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

/** `request` on `lane`, with `transfer`'s buffers moved, not copied; `lane.helper`s never start a worker of their own. */
async function requestOn(lane, op, args, onProgress, transfer = []) {
  if (coreMode === 'main-thread') {
    const core = await switchToMainThread();
    return core.handle({ op, args }, (state) => onProgress?.(state));
  }
  if (!lane.worker) {
    try {
      startWorker(lane);
    } catch {
      if (!embeddedWorker()) throw new Error('this browser refused to start the worker');
      await switchToMainThread();
      return requestOn(lane, op, args, onProgress);
    }
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    lane.pending.set(id, { resolve, reject, onProgress, op, args });
    lane.worker.postMessage({ id, op, args }, transfer);
  });
}

const lanes = new Map();

/**
 * The core as view `name` uses it: `request(op, args, onProgress, transfer)`,
 * `call(export, ...params)` (a wasm export that takes and returns JSON text),
 * `busy()` (a request is running), and `cancel()`, which ends this view's jobs
 * only: their promises reject with a CancelledError.
 */
export function lane(name) {
  if (lanes.has(name)) return lanes.get(name);
  const state = { worker: null, pending: new Map(), helpers: [] };
  const core = {
    name,
    state,
    request: (op, args, onProgress, transfer) => requestOn(state, op, args, onProgress, transfer),
    call: (exported, ...params) => requestOn(state, 'call', { name: exported, params }),
    busy: () => state.pending.size > 0,
    cancel() {
      const error = new Error('cancelled');
      error.name = 'CancelledError';
      stopLane(state, error);
    },
  };
  lanes.set(name, core);
  return core;
}

// ---- batches across workers ----
//
// Validating many documents is the one job that splits cleanly: each document
// is judged alone against the same schema. So a batch goes to its view's worker
// and to up to MAX_BATCH_WORKERS - 1 more, in contiguous slices of about equal
// size, and their replies are put back together in order. A batch worker is
// used only once it has loaded the core (a cold one would take longer to start
// than its slice takes), so the first big batch starts them and runs on the
// view's worker alone, and the view's cancel ends them with its other jobs.

const MAX_BATCH_WORKERS = 4;
// Below this many UTF-16 units of text a slice costs more to send and merge than it saves.
const MIN_SLICE_UNITS = 256 * 1024;

/**
 * Starts the batch workers this device has cores for, as helpers of `core`'s
 * lane (none in the main-thread fallback); resolves, once every one of them has
 * loaded the core, with how many workers a big batch is shared by (the lane's
 * own included).
 */
export function warmBatchWorkers(core) {
  const helpers = core.state.helpers;
  if (coreMode !== 'worker') return Promise.resolve(1);
  const wanted = Math.min(navigator.hardwareConcurrency || 1, MAX_BATCH_WORKERS) - 1;
  while (helpers.length < wanted) {
    const helper = { worker: null, pending: new Map(), helpers: [], ready: false };
    try {
      startWorker(helper, false);
    } catch {
      break; // The lane's own worker still takes every batch.
    }
    helper.loading = requestOn(helper, 'call', { name: 'limits', params: [] }).then(
      () => (helper.ready = true),
      () => {}, // Cancelled or failed: never used, and gone from the pool.
    );
    helpers.push(helper);
  }
  return Promise.all(helpers.map((helper) => helper.loading)).then(() => 1 + helpers.filter((helper) => helper.ready).length);
}

/**
 * Validates every text of `texts` against one schema (`schemaText` and
 * `optionsJson` as `validate_json_batch` takes them) on `core`'s lane and its
 * helpers: resolves with that export's reply, `{ok, dialect, valid, invalid,
 * failures}`, each failure's `index` its position in `texts`, however many
 * workers shared the batch, and `workers`, how many did.
 */
export async function validateBatch(core, texts, schemaText, optionsJson) {
  let total = 0;
  for (const text of texts) total += text.length;
  if (total >= 2 * MIN_SLICE_UNITS) warmBatchWorkers(core);
  const helpers = core.state.helpers.filter((helper) => helper.ready).slice(0, Math.max(0, Math.floor(total / MIN_SLICE_UNITS) - 1));
  const workers = [core.state, ...helpers];
  const parts = sliceBatch(texts, workers.length);
  const replies = await Promise.all(
    parts.map(({ texts: part }, index) => {
      const { joined, lengths } = packBatch(part);
      const params = [joined, lengths, schemaText, optionsJson];
      const args = { name: 'validate_json_batch', params, text: true };
      return requestOn(workers[index], 'call', args, undefined, [lengths.buffer]).then((reply) => JSON.parse(reply));
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
