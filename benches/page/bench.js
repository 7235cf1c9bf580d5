// The in-browser benchmarks (scripts/bench-page.mjs serves and drives this):
// apcheck through the page's real worker against ajv and jsondiffpatch, which
// are bundled into this benchmark page only (the product page never carries
// them). Results go to `window.benchResults`.

import Ajv2020 from 'ajv/dist/2020.js';
import { create } from 'jsondiffpatch';
import { encodeBatch } from '../../www/src/batch.js';

let nextId = 1;
const worker = new Worker('/build/worker.js');
const pending = new Map();
worker.onmessage = ({ data }) => {
  const job = pending.get(data.id);
  if (!job || data.progress) return;
  pending.delete(data.id);
  if (data.ok) job.resolve(data.result);
  else job.reject(new Error(data.error));
};

function request(op, args, transfer = []) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, op, args }, transfer);
  });
}

async function median(runs, work) {
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    result = await work();
    times.push(performance.now() - start);
  }
  times.sort((x, y) => x - y);
  return { ms: times[Math.floor(times.length / 2)], result };
}

async function benchValidate({ schema, documents, runs }) {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  const validate = ajv.compile(JSON.parse(schema));
  const peer = await median(runs, () => documents.filter((text) => validate(JSON.parse(text))).length);
  // The batch crosses into the worker and the wasm as one UTF-8 buffer and the
  // texts' byte lengths (www/src/batch.js), and the reply comes back as its
  // JSON text. Packing is timed, as a caller holding separate texts pays for it.
  const validateBatch = (texts) => {
    const { bytes, lengths } = encodeBatch(texts);
    const params = [bytes, lengths, '', '{"builtin": "plugin"}'];
    return request('call', { name: 'validate_json_batch', params, text: true }, [bytes.buffer, lengths.buffer]).then(
      (answer) => JSON.parse(answer),
    );
  };
  // The first call compiles the built-in schema; the page keeps it compiled, as it would.
  await validateBatch(documents.slice(0, 1));
  const ours = await median(runs, () => validateBatch(documents).then((answer) => answer.valid));
  return { ours: ours.ms, peer: peer.ms, oursValid: ours.result, peerValid: peer.result };
}

async function benchDiff({ a, b, runs }) {
  const differ = create({ objectHash: (item, index) => item.name ?? item.id ?? `$$index:${index}`, arrays: { detectMove: true } });
  const peer = await median(runs, () => differ.diff(JSON.parse(a), JSON.parse(b)) !== undefined);
  // What the Diff view asks for: the summary and the first screenful of rows.
  const ours = await median(runs, () => request('diff', { a, b, options: {}, small: false, first: 200 }));
  return { ours: ours.ms, peer: peer.ms, summary: ours.result.summary, changes: ours.result.changeCount, peerDiffers: peer.result };
}

window.bench = { benchValidate, benchDiff, ready: request('call', { name: 'limits', params: [] }) };
