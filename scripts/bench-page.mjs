#!/usr/bin/env node
// The page's rows of the benchmark against peer tools, in headless Chromium:
// apcheck through the page's real worker, against ajv and jsondiffpatch bundled
// into a benchmark page of their own (benches/page/bench.js; never the product
// page), and against the native figures of `cargo bench --bench json`, on the
// same generated data. Prints times and ratios; fails only on a correctness
// check (the same verdicts), never on a time.
//
// The Snapshot rows: each Snapshot task (lint, changes, drift,
// build, call) on two 10,000-tool snapshots, in the Snapshot view's worker
// against the release CLI (`target/release/apcheck`) on the same files in the
// same run, as page/CLI ratios (goal: ≤ 2×).
//
//   node scripts/bench-page.mjs [--runs N] [--data DIR --no-native] [--only validate|diff|snapshot|start]   (after `npm run build`)
//
// The page's start: first paint and "ready" (`data-ready` on <html>,
// set once the rules are loaded from the worker) of the served page
// (scripts/serve.mjs, brotli), cold (a new browser context) and warm (a second
// load in the same context, from the service worker's cache), at 10 Mbit/s,
// 40 ms RTT and the CPU throttled 4× through CDP. Goals: cold ready ≤ 1.5 s,
// warm ready ≤ 300 ms.
//
// Every row is also appended to target/figures/bench-page.jsonl (appended, so
// that runs of one `--only` each add up), from which `node scripts/figures.mjs`
// renders the book's figures table.
//
// --data DIR reads the inputs from DIR (default target/bench-data, which the
// native benchmark writes); --no-native skips that benchmark and its column;
// --only runs one kind of row (the validation row needs only DIR/small/; the
// Snapshot rows write their own inputs to DIR/snapshots/ and need
// `cargo build --release --bin apcheck`).

import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 5;
const dataFlag = process.argv.indexOf('--data');
const data = dataFlag > 0 ? process.argv[dataFlag + 1] : join(root, 'target/bench-data');
const withNative = !process.argv.includes('--no-native');
const onlyFlag = process.argv.indexOf('--only');
const only = onlyFlag > 0 ? process.argv[onlyFlag + 1] : undefined;
if (only !== undefined && !['validate', 'diff', 'snapshot', 'start'].includes(only)) fail('--only takes `validate`, `diff`, `snapshot` or `start`');
const wants = (kind) => only === undefined || only === kind;

function fail(message) {
  console.error(`bench-page: ${message}`);
  process.exit(1);
}

if (!existsSync(join(root, 'www/build/worker.js'))) fail('www/build is missing: run `npm run build` first');

// The native figures, from the same generator that writes the data files.
const native = {};
if (withNative) {
  const parts = ['validate', 'diff'].filter(wants);
  if (parts.length) console.log(`bench-page: native figures (cargo bench --bench json -- ${parts.join(' ')})`);
  const args = ['bench', '--locked', '--bench', 'json', '--', ...parts, '--data-dir', data];
  const benchOutput = parts.length === 0 ? '' : execFileSync('cargo', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  for (const [, name, ms] of benchOutput.matchAll(/^result (\S+) ([\d.]+)$/gm)) native[name] = Number(ms);
}
if ((wants('validate') && !existsSync(join(data, 'small'))) || (wants('diff') && !existsSync(join(data, 'tools-a.json')))) {
  fail(`no benchmark inputs in ${data}`);
}

const cli = join(root, 'target/release/apcheck');
// The CLI as released; a no-op when `cargo bench` (or an earlier run) built it already.
if (wants('snapshot')) execFileSync('cargo', ['build', '--release', '--locked', '--bin', 'apcheck'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

// Two minified snapshots of 10,000 tools on two servers, the new one with a few
// changes of each level (the pair the Snapshot rows' goal is set on); the
// plugin folder they were taken from, each server's tools/list, and a tool
// call's arguments.
function snapshotInputs(dir) {
  const tool = (i) => ({
    name: `tool_${String(i).padStart(5, '0')}`,
    server: i % 2 ? 'alpha' : 'beta',
    description: `Looks up record ${i} in the inventory service. Use when record ${i} is asked for.`,
    inputSchema: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[a-z0-9-]+$' }, limit: { type: 'integer', minimum: 1, maximum: 100 }, mode: { type: 'string', enum: ['fast', 'slow', 'auto'] } } },
  });
  const servers = [
    { id: 'alpha', type: 'stdio', status: 'connected' },
    { id: 'beta', type: 'streamable-http', status: 'connected' },
  ];
  const old = { $schema: 'urn:apcheck:schema:snapshot:1', plugin: { name: 'big-plugin', version: '2.4.0', spec: '1.0.0' }, skills: [], mcpServers: servers, tools: [] };
  for (let i = 0; i < 10000; i++) old.tools.push(tool(i));
  const next = structuredClone(old);
  next.plugin.version = '2.5.0';
  next.tools[17].description = 'Looks up a record.';
  next.tools[5000].inputSchema.required.push('mode');
  next.tools[9998].inputSchema.properties.mode.enum.push('turbo');
  next.tools.splice(4321, 1);
  next.tools.push(tool(10000));
  next.tools.unshift(...next.tools.splice(7000, 1));
  const plugin = { $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json', name: 'big-plugin', version: '2.5.0', description: 'Ten thousand inventory tools on two servers' };
  const mcp = { $schema: 'https://agent-plugins.org/schemas/1.0.0/mcp.schema.json', mcpServers: { alpha: { type: 'stdio', command: 'inventory-alpha' }, beta: { type: 'streamable-http', url: 'https://inventory.example.com/mcp' } } };
  const toolsOf = (server) => JSON.stringify({ tools: next.tools.filter((t) => t.server === server).map(({ server: _, ...rest }) => rest) });
  mkdirSync(join(dir, 'big-plugin'), { recursive: true });
  const files = {
    'old.min.json': JSON.stringify(old),
    'new.min.json': JSON.stringify(next),
    'big-plugin/plugin.json': JSON.stringify(plugin, null, 2),
    'big-plugin/mcp.json': JSON.stringify(mcp, null, 2),
    'alpha.tools.json': toolsOf('alpha'),
    'beta.tools.json': toolsOf('beta'),
    'arguments.json': '{"id": "record-42", "limit": 10, "mode": "fast"}',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return files;
}

/** The median wall time of `runs` runs of the CLI (a process start included, as a user pays it). */
function cliMedian(args, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const run = spawnSync(cli, args, { stdio: 'ignore' });
    times.push(performance.now() - start);
    if (run.error || run.status > 1) fail(`apcheck ${args.join(' ')} failed (${run.error?.message ?? `exit ${run.status}`})`);
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)];
}

// The slow device the start goals are set for: 10 Mbit/s both ways, 40 ms RTT, CPU 4× slower.
const PROFILE = { latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8, cpu: 4 };

/**
 * When `data-ready` turned true and when the page first painted, in ms since
 * the navigation started. The page says it is ready on the console, which the
 * benchmark waits for: polling with `waitForFunction` made Playwright inject
 * its script into the page at the start, about 80 ms of the main thread at 4×
 * throttling, in the middle of the start being measured.
 */
function recordReady() {
  new MutationObserver(() => {
    if (document.documentElement?.dataset.ready !== 'true' || window.readyAt !== undefined) return;
    window.readyAt = performance.now();
    console.log(READY_SIGNAL);
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
}

const READY_SIGNAL = 'bench-page: ready';

async function throttle(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: PROFILE.latency, downloadThroughput: PROFILE.downloadThroughput, uploadThroughput: PROFILE.uploadThroughput });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpu });
}

async function loadOnce(page, url) {
  const ready = page.waitForEvent('console', { predicate: (message) => message.text() === READY_SIGNAL, timeout: 60_000 });
  await page.goto(url);
  await ready;
  return page.evaluate(() => ({ paint: (performance.getEntriesByName('first-contentful-paint')[0] ?? performance.getEntriesByName('first-paint')[0])?.startTime, ready: window.readyAt }));
}

/** Cold and warm starts of the served page, `runs` of each: the medians. */
async function pageStart(browser, runs) {
  const server = await startServer({ port: 0 });
  const url = `http://127.0.0.1:${server.address().port}/`;
  try {
    // One unthrottled load first: the server compresses each file once, on its first request.
    const primer = await browser.newContext();
    await (await primer.newPage()).goto(url);
    await primer.close();
    const cold = [];
    const warm = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ serviceWorkers: 'allow' });
      await context.addInitScript(`const READY_SIGNAL = ${JSON.stringify(READY_SIGNAL)}; (${recordReady})();`);
      const page = await context.newPage();
      await throttle(context, page);
      cold.push(await loadOnce(page, url));
      // The service worker has kept the build once it is active.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
      warm.push(await loadOnce(page, url));
      warm[warm.length - 1].controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
      await context.close();
    }
    const median = (list, key) => list.map((entry) => entry[key]).sort((x, y) => x - y)[Math.floor(list.length / 2)];
    return { cold: { paint: median(cold, 'paint'), ready: median(cold, 'ready') }, warm: { paint: median(warm, 'paint'), ready: median(warm, 'ready'), controlled: warm.every((entry) => entry.controlled) } };
  } finally {
    server.close();
  }
}

// The page's client names the worker's file; this page serves it under its plain name.
const bundle = await esbuild.build({ entryPoints: [join(root, 'benches/page/bench.js')], bundle: true, minify: true, format: 'iife', write: false, logLevel: 'warning', define: { WORKER_FILE: '"build/worker.js"' } });
const files = {
  '/': { type: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>apcheck page benchmarks</title><script src="/bench.js"></script>' },
  '/bench.js': { type: 'text/javascript', body: bundle.outputFiles[0].contents },
  '/build/worker.js': { type: 'text/javascript', body: readFileSync(join(root, 'www/build/worker.js')) },
};
// ajv compiles schemas to functions ('unsafe-eval'): allowed on this page only.
const policy = "default-src 'none'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'none'";
const server = createServer((request, response) => {
  const file = files[new URL(request.url, 'http://localhost').pathname];
  if (!file) return response.writeHead(404).end();
  response.writeHead(200, { 'Content-Type': file.type, 'Content-Security-Policy': policy }).end(file.body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const outside = [];
try {
  const page = await browser.newPage();
  page.on('request', (request) => request.url().startsWith(`http://127.0.0.1:${server.address().port}/`) || outside.push(request.url()));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.evaluate(() => window.bench.ready);

  const ms = (n) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '—').padStart(11);
  const ratio = (ours, other) => (other ? `${(ours / other).toFixed(2)}×` : 'n/a').padStart(8);
  const rows = [];
  const snapshotRows = [];
  // The figures table's rows: {id, row, figure, goal}; `by` is added when written.
  const figures = [];
  const fig = (n) => `${n.toFixed(1)} ms`;
  const times = (ours, other) => `${(ours / other).toFixed(2)}×`;
  if (wants('validate')) {
    const documents = readdirSync(join(data, 'small')).sort().map((name) => readFileSync(join(data, 'small', name), 'utf8'));
    const schema = readFileSync(join(root, 'schemas/agent-plugins/1.0.0/plugin.schema.json'), 'utf8');
    const validation = await page.evaluate((input) => window.bench.benchValidate(input), { schema, documents, runs });
    // The page shares a big batch with one worker per core; the row above it is its own worker alone.
    rows.push(`  ${`validate ${documents.length} small documents, one worker (ajv)`.padEnd(64)} ${ms(validation.single)} ${ms(validation.peer)} ${ratio(validation.single, validation.peer)} ${ms(native['validate-10k'] ?? NaN)} ${ratio(validation.single, native['validate-10k'])}`);
    rows.push(`  ${`the same, as the page shares it: ${validation.workers} workers (ajv)`.padEnd(64)} ${ms(validation.ours)} ${ms(validation.peer)} ${ratio(validation.ours, validation.peer)} ${ms(native['validate-10k'] ?? NaN)} ${ratio(validation.ours, native['validate-10k'])}`);
    const nativeValidate = native['validate-10k'];
    const againstNative = (ours) => (nativeValidate ? `; native ${fig(nativeValidate)} (${times(ours, nativeValidate)})` : '');
    figures.push({ id: 'page-validate-one', row: `page: validate ${documents.length.toLocaleString('en')} small documents, the page's worker alone`, figure: `${fig(validation.single)}; ajv ${fig(validation.peer)} (${times(validation.single, validation.peer)})${againstNative(validation.single)}`, goal: '≤ 1.5× native (≤ ajv is retired)' });
    figures.push({ id: 'page-validate-shared', row: `page: validate ${documents.length.toLocaleString('en')} small documents as the page shares them (${validation.workers} workers)`, figure: `${fig(validation.ours)}; ajv ${fig(validation.peer)} (${times(validation.ours, validation.peer)})${againstNative(validation.ours)}`, goal: '' });
    for (const [how, found] of [['one worker', validation.singleValid], [`${validation.workers} workers`, validation.oursValid]]) {
      if (found !== validation.peerValid) fail(`verdicts differ: apcheck (${how}) finds ${found} valid documents, ajv ${validation.peerValid}`);
    }
  }
  if (wants('diff')) {
    const a = readFileSync(join(data, 'tools-a.json'), 'utf8');
    const b = readFileSync(join(data, 'tools-b.json'), 'utf8');
    const diff = await page.evaluate((input) => window.bench.benchDiff(input), { a, b, runs });
    // The same snapshots minified (one line each), as the Diff view's "Open A… / Open B…" loads them.
    const [aLine, bLine] = [a, b].map((text) => JSON.stringify(JSON.parse(text)));
    const minified = await page.evaluate((input) => window.bench.benchDiff(input), { a: aLine, b: bLine, runs });
    rows.push(`  ${`keyed diff of two ${(a.length / 2 ** 20).toFixed(1)} MB 10,000-tool snapshots (jsondiffpatch)`.padEnd(64)} ${ms(diff.ours)} ${ms(diff.peer)} ${ratio(diff.ours, diff.peer)} ${ms(native['diff-10k-tools'] ?? NaN)} ${ratio(diff.ours, native['diff-10k-tools'])}`);
    rows.push(`  ${`the same, minified: two ${(aLine.length / 2 ** 20).toFixed(1)} MB one-line documents (jsondiffpatch)`.padEnd(64)} ${ms(minified.ours)} ${ms(minified.peer)} ${ratio(minified.ours, minified.peer)}`);
    rows.push(`  apcheck diff: ${diff.changes} changes ${JSON.stringify(diff.summary)}`);
    figures.push({ id: 'page-diff', row: `page: keyed diff, two ${(a.length / 2 ** 20).toFixed(1)} MB 10,000-tool snapshots`, figure: `${fig(diff.ours)}; jsondiffpatch ${fig(diff.peer)} (${times(diff.ours, diff.peer)})`, goal: '≤ 0.5 s, ≥ 7× faster than jsondiffpatch' });
    figures.push({ id: 'page-diff-minified', row: `page: keyed diff, the same minified (two ${(aLine.length / 2 ** 20).toFixed(1)} MB one-line documents)`, figure: `${fig(minified.ours)}; jsondiffpatch ${fig(minified.peer)} (${times(minified.ours, minified.peer)})`, goal: '' });
    if (!diff.peerDiffers || diff.changes === 0) fail('one side found no difference between the two snapshots');
    if (JSON.stringify(minified.summary) !== JSON.stringify(diff.summary)) fail(`minifying changed the diff: ${JSON.stringify(minified.summary)} against ${JSON.stringify(diff.summary)}`);
  }
  if (wants('snapshot')) {
    const dir = join(data, 'snapshots');
    const files = snapshotInputs(dir);
    const pkg = { root: 'big-plugin', entries: [{ path: 'plugin.json', kind: 'file', text: files['big-plugin/plugin.json'] }, { path: 'mcp.json', kind: 'file', text: files['big-plugin/mcp.json'] }] };
    const tools = { alpha: files['alpha.tools.json'], beta: files['beta.tools.json'] };
    const tool = 'alpha/tool_00001';
    const input = { old: files['old.min.json'], snapshot: files['new.min.json'], pkg, tools, tool, args: files['arguments.json'], runs };
    const inPage = await page.evaluate((given) => window.bench.benchSnapshot(given), input);
    const at = (name) => join(dir, name);
    const byCli = {
      lint: cliMedian(['check-snapshot', at('new.min.json')], runs),
      changes: cliMedian(['changes', at('old.min.json'), at('new.min.json')], runs),
      drift: cliMedian(['drift', at('new.min.json'), at('big-plugin')], runs),
      build: cliMedian(['snapshot', at('big-plugin'), '--tools', `alpha=${at('alpha.tools.json')}`, '--tools', `beta=${at('beta.tools.json')}`, '--output', at('built.json')], runs),
      call: cliMedian(['call', at('new.min.json'), tool, at('arguments.json')], runs),
    };
    const size = (files['new.min.json'].length / 1e6).toFixed(1);
    const what = {
      lint: `Snapshot lint: one ${size} MB 10,000-tool snapshot`,
      changes: `Snapshot changes: two ${size} MB 10,000-tool snapshots`,
      drift: `Snapshot drift: the ${size} MB snapshot against its folder`,
      build: 'Snapshot build: a folder and 2 tools/list of 5,000 tools',
      call: `Snapshot tool call: arguments against the ${size} MB snapshot`,
    };
    snapshotRows.push(`  ${'Snapshot task (CLI: target/release/apcheck, same files)'.padEnd(64)} ${'page'.padStart(11)} ${'CLI'.padStart(11)} ${'÷ CLI'.padStart(8)}  goal ≤ 2×`);
    for (const name of Object.keys(what)) {
      const found = inPage[name];
      snapshotRows.push(`  ${what[name].padEnd(64)} ${ms(found.ms)} ${ms(byCli[name])} ${ratio(found.ms, byCli[name])}  (page: ${JSON.stringify(found.result)})`);
      figures.push({ id: `page-snapshot-${name}`, row: `page: ${what[name]}, against the release CLI on the same files`, figure: `${times(found.ms, byCli[name])} the CLI (${fig(found.ms)} against ${fig(byCli[name])})`, goal: '≤ 2× the CLI' });
    }
  }
  const startRows = [];
  if (wants('start')) {
    // At most 3 of each: a cold start at this profile takes seconds.
    const starts = await pageStart(browser, Math.min(runs, 3));
    startRows.push(`  ${`page start at ${PROFILE.downloadThroughput * 8e-6} Mbit/s, ${PROFILE.latency} ms RTT, CPU ${PROFILE.cpu}× slower`.padEnd(64)} ${'paint'.padStart(11)} ${'ready'.padStart(11)}  goal (ready)`);
    startRows.push(`  ${'cold: a new browser context'.padEnd(64)} ${ms(starts.cold.paint)} ${ms(starts.cold.ready)}  ≤ 1500 ms`);
    startRows.push(`  ${`warm: a second load, ${starts.warm.controlled ? 'from the service worker' : 'NOT controlled by the service worker'}`.padEnd(64)} ${ms(starts.warm.paint)} ${ms(starts.warm.ready)}  ≤ 300 ms`);
    const profile = `${PROFILE.downloadThroughput * 8e-6} Mbit/s, ${PROFILE.latency} ms RTT, CPU ${PROFILE.cpu}× slower`;
    figures.push({ id: 'page-start-cold', row: `page start at ${profile}: cold (a new browser context)`, figure: `ready ${fig(starts.cold.ready)}, first paint ${fig(starts.cold.paint)}`, goal: 'ready ≤ 1.5 s' });
    figures.push({ id: 'page-start-warm', row: `page start at ${profile}: warm (a second load, ${starts.warm.controlled ? 'from the service worker' : 'NOT from the service worker'})`, figure: `ready ${fig(starts.warm.ready)}, first paint ${fig(starts.warm.paint)}`, goal: 'ready ≤ 300 ms' });
  }
  console.log('bench-page: medians of %d runs in headless Chromium; ratio = apcheck / other', runs);
  if (rows.length) console.log(`  ${'row'.padEnd(64)} ${'apcheck'.padStart(11)} ${'peer'.padStart(11)} ${'÷ peer'.padStart(8)} ${'native'.padStart(11)} ${'÷ native'.padStart(8)}`);
  for (const row of rows) console.log(row);
  for (const row of snapshotRows) console.log(row);
  for (const row of startRows) console.log(row);
  if (outside.length) fail(`requests outside the benchmark page: ${outside.join(', ')}`);
  mkdirSync(join(root, 'target/figures'), { recursive: true });
  appendFileSync(join(root, 'target/figures/bench-page.jsonl'), figures.map((row) => `${JSON.stringify({ ...row, by: 'node scripts/bench-page.mjs' })}\n`).join(''));
} finally {
  await browser.close();
  server.close();
}
