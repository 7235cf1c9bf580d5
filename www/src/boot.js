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
    const worker = new Worker(WORKER_FILE);
    // The client listens only once it takes the worker: a failure before then is kept for it.
    worker.addEventListener('error', () => (worker.failedEarly = true), { once: true });
    globalThis.apcheckEarlyWorker = worker;
  } catch {
    // Refused: the client starts its own worker, and reports a refusal then.
  }
}
