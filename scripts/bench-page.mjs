#!/usr/bin/env node
// The page's rows of the benchmark table (issue 14), in headless Chromium:
// apcheck through the page's real worker, against ajv and jsondiffpatch bundled
// into a benchmark page of their own (benches/page/bench.js; never the product
// page), and against the native figures of `cargo bench --bench json`, on the
// same generated data. Prints times and ratios; fails only on a correctness
// check (the same verdicts), never on a time.
//
//   node scripts/bench-page.mjs [--runs N] [--data DIR --no-native] [--only validate|diff]   (after `npm run build`)
//
// --data DIR reads the inputs from DIR (default target/bench-data, which the
// native benchmark writes); --no-native skips that benchmark and its column;
// --only runs one kind of row (the validation row needs only DIR/small/).

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 5;
const dataFlag = process.argv.indexOf('--data');
const data = dataFlag > 0 ? process.argv[dataFlag + 1] : join(root, 'target/bench-data');
const withNative = !process.argv.includes('--no-native');
const onlyFlag = process.argv.indexOf('--only');
const only = onlyFlag > 0 ? process.argv[onlyFlag + 1] : undefined;
if (only !== undefined && only !== 'validate' && only !== 'diff') fail('--only takes `validate` or `diff`');
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
  console.log(`bench-page: native figures (cargo bench --bench json -- ${parts.join(' ')})`);
  const args = ['bench', '--locked', '--bench', 'json', '--', ...parts, '--data-dir', data];
  const benchOutput = execFileSync('cargo', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  for (const [, name, ms] of benchOutput.matchAll(/^result (\S+) ([\d.]+)$/gm)) native[name] = Number(ms);
}
if ((wants('validate') && !existsSync(join(data, 'small'))) || (wants('diff') && !existsSync(join(data, 'tools-a.json')))) {
  fail(`no benchmark inputs in ${data}`);
}

const bundle = await esbuild.build({ entryPoints: [join(root, 'benches/page/bench.js')], bundle: true, minify: true, format: 'iife', write: false, logLevel: 'warning' });
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
  if (wants('validate')) {
    const documents = readdirSync(join(data, 'small')).sort().map((name) => readFileSync(join(data, 'small', name), 'utf8'));
    const schema = readFileSync(join(root, 'schemas/agent-plugins/1.0.0/plugin.schema.json'), 'utf8');
    const validation = await page.evaluate((input) => window.bench.benchValidate(input), { schema, documents, runs });
    // The page shares a big batch with one worker per core; the row above it is its own worker alone.
    rows.push(`  ${`validate ${documents.length} small documents, one worker (ajv)`.padEnd(64)} ${ms(validation.single)} ${ms(validation.peer)} ${ratio(validation.single, validation.peer)} ${ms(native['validate-10k'] ?? NaN)} ${ratio(validation.single, native['validate-10k'])}`);
    rows.push(`  ${`the same, as the page shares it: ${validation.workers} workers (ajv)`.padEnd(64)} ${ms(validation.ours)} ${ms(validation.peer)} ${ratio(validation.ours, validation.peer)} ${ms(native['validate-10k'] ?? NaN)} ${ratio(validation.ours, native['validate-10k'])}`);
    for (const [how, found] of [['one worker', validation.singleValid], [`${validation.workers} workers`, validation.oursValid]]) {
      if (found !== validation.peerValid) fail(`verdicts differ: apcheck (${how}) finds ${found} valid documents, ajv ${validation.peerValid}`);
    }
  }
  if (wants('diff')) {
    const a = readFileSync(join(data, 'tools-a.json'), 'utf8');
    const b = readFileSync(join(data, 'tools-b.json'), 'utf8');
    const diff = await page.evaluate((input) => window.bench.benchDiff(input), { a, b, runs });
    // The same snapshots minified (one line each), as issue 14's "Open A… / Open B…" row loads them.
    const [aLine, bLine] = [a, b].map((text) => JSON.stringify(JSON.parse(text)));
    const minified = await page.evaluate((input) => window.bench.benchDiff(input), { a: aLine, b: bLine, runs });
    rows.push(`  ${`keyed diff of two ${(a.length / 2 ** 20).toFixed(1)} MB 10,000-tool snapshots (jsondiffpatch)`.padEnd(64)} ${ms(diff.ours)} ${ms(diff.peer)} ${ratio(diff.ours, diff.peer)} ${ms(native['diff-10k-tools'] ?? NaN)} ${ratio(diff.ours, native['diff-10k-tools'])}`);
    rows.push(`  ${`the same, minified: two ${(aLine.length / 2 ** 20).toFixed(1)} MB one-line documents (jsondiffpatch)`.padEnd(64)} ${ms(minified.ours)} ${ms(minified.peer)} ${ratio(minified.ours, minified.peer)}`);
    rows.push(`  apcheck diff: ${diff.changes} changes ${JSON.stringify(diff.summary)}`);
    if (!diff.peerDiffers || diff.changes === 0) fail('one side found no difference between the two snapshots');
    if (JSON.stringify(minified.summary) !== JSON.stringify(diff.summary)) fail(`minifying changed the diff: ${JSON.stringify(minified.summary)} against ${JSON.stringify(diff.summary)}`);
  }
  console.log('bench-page: medians of %d runs in headless Chromium; ratio = apcheck / other', runs);
  console.log(`  ${'row'.padEnd(64)} ${'apcheck'.padStart(11)} ${'peer'.padStart(11)} ${'÷ peer'.padStart(8)} ${'native'.padStart(11)} ${'÷ native'.padStart(8)}`);
  for (const row of rows) console.log(row);
  if (outside.length) fail(`requests outside the benchmark page: ${outside.join(', ')}`);
} finally {
  await browser.close();
  server.close();
}
