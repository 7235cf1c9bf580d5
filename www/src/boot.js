// Starts the core's first Web Worker as soon as the page's head is read, so
// that the worker's download (the wasm rides in it) shares the network with
// app.js instead of waiting for app.js to arrive and run. The page's client
// (www/src/client.js) takes this worker for the first lane that needs one; if
// the page got there first, it has marked the slot taken and nothing starts.
// The page loads it as an ordinary script, not `async`: from the service
// worker's cache Chromium ran an async one only after app.js and the DOM
// (docs/page.md says by how much).

/* global WORKER_FILE */
if (!('apcheckEarlyWorker' in globalThis)) {
  try {
    // Named so that it reads the rule registry as soon as its core is loaded,
    // unasked (www/src/worker.js): a request from the page would wait for the
    // page's script to run, and the page is ready once it has the registry.
    const worker = new Worker(WORKER_FILE, { name: 'apcheck-early' });
    // The client listens only once it takes the worker: a failure before then is kept for it.
    worker.addEventListener('error', () => (worker.failedEarly = true), { once: true });
    // The registry, kept for the page's rules.js (www/src/client.js `earlyRules`).
    worker.rules = new Promise((resolve, reject) => {
      worker.addEventListener('message', ({ data }) => data?.early === 'rules' && (data.ok ? resolve(data.result) : reject(new Error(data.error))));
      worker.addEventListener('error', () => reject(new Error('the worker stopped')));
      worker.dropRules = () => reject(new Error('the worker was ended'));
    });
    // Nobody may be waiting for it (a failure falls back to asking again).
    worker.rules.catch(() => {});
    globalThis.apcheckEarlyWorker = worker;
  } catch {
    // Refused: the client starts its own worker, and reports a refusal then.
  }
}
