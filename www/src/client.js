// The page's side of the worker: requests (answered in order), progress
// callbacks, and cancel (which ends the worker; the next request starts a new one).

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

function startWorker() {
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
    }
  };
  started.onerror = (event) => {
    event.preventDefault();
    // A blob worker refused under file:// fails before answering anything: run in-process instead.
    if (embeddedWorker() && coreMode === 'worker') {
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

/** Sends one request to the core; resolves with its result (parsed JSON). */
export async function request(op, args, onProgress) {
  if (coreMode === 'main-thread') {
    const core = await switchToMainThread();
    return core.handle({ op, args }, (state) => onProgress?.(state));
  }
  if (!worker) {
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
    worker.postMessage({ id, op, args });
  });
}

/** Calls a wasm export that takes and returns JSON text. */
export function call(name, ...params) {
  return request('call', { name, params });
}

/** Ends every running job: their promises reject with a CancelledError. */
export function cancelAll() {
  stopWorker();
  const error = new Error('cancelled');
  error.name = 'CancelledError';
  settleAll(error);
}
