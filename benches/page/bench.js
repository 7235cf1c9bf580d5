// The in-browser benchmarks (scripts/bench-page.mjs serves and drives this):
// apcheck through the page's real worker against ajv and jsondiffpatch, which
// are bundled into this benchmark page only (the product page never carries
// them). Results go to `window.benchResults`.

import Ajv2020 from 'ajv/dist/2020.js';
import { create } from 'jsondiffpatch';
import { packBatch } from '../../www/src/batch.js';
import { lane, validateBatch, warmBatchWorkers } from '../../www/src/client.js';

// The workers the Schema and Diff views use, as they use them.
const schemaCore = lane('schema');
const diffCore = lane('diff');
const snapshotCore = lane('snapshot');

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
  const builtin = '{"builtin": "plugin"}';
  // The Schema view's worker alone: the batch crosses as one string and its texts'
  // UTF-16 lengths (www/src/batch.js). Packing is timed, as a caller holding
  // separate texts pays for it.
  const oneWorker = (texts) => {
    const { joined, lengths } = packBatch(texts);
    const args = { name: 'validate_json_batch', params: [joined, lengths, '', builtin], text: true };
    return schemaCore.request('call', args, undefined, [lengths.buffer]).then((answer) => JSON.parse(answer));
  };
  // The first call compiles the built-in schema; the page keeps it compiled, as it would.
  await oneWorker(documents.slice(0, 1));
  const single = await median(runs, () => oneWorker(documents).then((answer) => answer.valid));
  // The page's own path (www/src/client.js `validateBatch`): the batch shared
  // by the Schema view's worker and one more per core, started and warmed first, as
  // the page keeps them once a big batch started them.
  const workers = await warmBatchWorkers(schemaCore);
  await validateBatch(schemaCore, documents, '', builtin);
  const ours = await median(runs, () => validateBatch(schemaCore, documents, '', builtin).then((answer) => answer.valid));
  return { ours: ours.ms, single: single.ms, workers, peer: peer.ms, oursValid: ours.result, singleValid: single.result, peerValid: peer.result };
}

async function benchDiff({ a, b, runs }) {
  const differ = create({ objectHash: (item, index) => item.name ?? item.id ?? `$$index:${index}`, arrays: { detectMove: true } });
  const peer = await median(runs, () => differ.diff(JSON.parse(a), JSON.parse(b)) !== undefined);
  // What the Diff view asks for: the summary and the first screenful of rows.
  const ours = await median(runs, () => diffCore.request('diff', { a, b, options: {}, small: false, first: 200 }));
  return { ours: ours.ms, peer: peer.ms, summary: ours.result.summary, changes: ours.result.changeCount, peerDiffers: peer.result };
}

// Each Snapshot task on its view's worker, with the requests the Snapshot view
// sends (www/src/views/snapshot.js); `pkg` is the plugin folder as a drop gives it.
async function benchSnapshot({ old, snapshot, pkg, tools, tool, args, runs }) {
  const withPackage = (action, extra) => snapshotCore.request('check', { ...pkg, action, root: pkg.root, ...extra });
  const tasks = {
    lint: () => snapshotCore.call('snapshot_lint', 'snapshot.json', snapshot).then((answer) => answer.valid),
    changes: () => snapshotCore.call('snapshot_changes', 'old.snapshot.json', old, 'snapshot.json', snapshot).then((answer) => answer.report.changes.length),
    drift: () => withPackage('drift', { snapshotName: 'snapshot.json', snapshotText: snapshot }).then((answer) => answer.report.rows.length),
    build: () => withPackage('build', { tools }).then((built) => (built.ok ? built.summary.tools : built.error.message)),
    call: () => snapshotCore.call('snapshot_call', 'snapshot.json', snapshot, tool, 'arguments.json', args).then((answer) => answer.report.valid),
  };
  const times = {};
  for (const [name, task] of Object.entries(tasks)) {
    const { ms, result } = await median(runs, task);
    times[name] = { ms, result };
  }
  return times;
}

window.bench = { benchValidate, benchDiff, benchSnapshot, ready: Promise.all([schemaCore.call('limits'), diffCore.call('limits'), snapshotCore.call('limits')]) };
