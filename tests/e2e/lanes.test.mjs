// Each view's jobs run on its own worker (www/src/client.js `lane`): one job
// per user action, a long Snapshot job never holds up another view, a new run
// supersedes the one still going, and a cancel ends only its own view's job.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { offOrigin, openPage, repoRoot, screenshot, selectCheckText, servePageForEachFile, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

/** Counts, in the page, every job posted to a worker and every worker started and ended. */
function countJobs() {
  window.e2eJobs = [];
  window.e2eWorkers = { started: 0, ended: 0 };
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message?.op) window.e2eJobs.push(message.args?.name ?? message.op);
    return post.call(this, message, ...rest);
  };
  const terminate = Worker.prototype.terminate;
  Worker.prototype.terminate = function () {
    window.e2eWorkers.ended++;
    return terminate.call(this);
  };
  const Started = Worker;
  window.Worker = class extends Started {
    constructor(...args) {
      super(...args);
      window.e2eWorkers.started++;
    }
  };
}

/** Two minified snapshots of `count` tools each, a few of them changed: a Changes job of seconds. */
function bigPair(count = 10_000) {
  const tool = (i) => ({
    name: `tool_${String(i).padStart(5, '0')}`,
    server: i % 2 ? 'alpha' : 'beta',
    description: `Tool number ${i}.`,
    inputSchema: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, mode: { type: 'string', enum: ['fast', 'slow'] } } },
  });
  const snapshot = (version, tools) => ({
    $schema: 'urn:apcheck:schema:snapshot:1',
    plugin: { name: 'big-plugin', version, spec: '1.0.0' },
    skills: [],
    mcpServers: [
      { id: 'alpha', type: 'stdio', status: 'connected' },
      { id: 'beta', type: 'stdio', status: 'connected' },
    ],
    tools,
  });
  const tools = Array.from({ length: count }, (_, i) => tool(i));
  const changed = tools.map((t, i) => (i === 17 ? { ...t, description: 'Changed.' } : t));
  changed.push(tool(count));
  return [JSON.stringify(snapshot('2.4.0', tools)), JSON.stringify(snapshot('2.5.0', changed))];
}

const open = (page, id, name, text) => page.setInputFiles(id, { name, mimeType: 'application/json', buffer: Buffer.from(text) });
const snapshotStatus = (page, tone, pattern) => page.locator(`#snapshot-root .result-pane > .status.${tone}`).filter({ hasText: pattern }).waitFor({ timeout: 20_000 });

test('Open… sends one job to the worker', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#snapshot`, { init: countJobs });
  await waitReady(page);
  await page.evaluate(() => (window.e2eJobs.length = 0));
  const snapshot = await readFile(join(repoRoot, 'tests/fixtures/invoice-ops/snapshot.json'), 'utf8');
  await open(page, '#snapshot-open-new', 'snapshot.json', snapshot);
  await snapshotStatus(page, 'ok', /well formed/);
  // Past the 400 ms an edit waits before its re-run: no second job follows.
  await page.waitForTimeout(1000);
  assert.deepEqual(await page.evaluate(() => window.e2eJobs.filter((name) => name.startsWith('snapshot_'))), ['snapshot_lint']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a running Snapshot job delays no other view, a new run supersedes it, and Esc cancels only it', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#check`, { init: countJobs });
  await waitReady(page);
  await page.waitForSelector('#check-result .verdict');
  // Large enough that the job is still running when Run is pressed: the
  // snapshot core compares 10,000 tools in well under a second now.
  const [older, newer] = bigPair(100_000);
  await page.goto(`${origin}/#snapshot`);
  await page.locator('#snapshot-root .segmented button[data-task="changes"]').click();
  await open(page, '#snapshot-open-old', 'old.json', older);
  await open(page, '#snapshot-open-new', 'new.json', newer);
  await page.locator('#progress:not([hidden])', { hasText: 'Comparing snapshots' }).waitFor({ timeout: 20_000 });

  // The Check view answers at once, on its own worker, while the Snapshot job goes on.
  await page.goto(`${origin}/#check`);
  const started = Date.now();
  await selectCheckText(page);
  await page.keyboard.insertText('{"version": "1.0.0"}');
  await page.locator('#check-result .verdict.bad').waitFor({ timeout: 5000 });
  const checkMs = Date.now() - started;
  // The bar names the other view's job, still running.
  assert.match(await page.locator('#progress-text').textContent(), /^Snapshot view: Comparing snapshots/);
  await screenshot(page, 'lanes-check-while-snapshot');
  assert.ok(checkMs < 5000, `the Check view answered in ${checkMs} ms`);

  // Run again: the running job is ended, not waited for.
  await page.goto(`${origin}/#snapshot`);
  const ended = await page.evaluate(() => window.e2eWorkers.ended);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  assert.equal(await page.evaluate(() => window.e2eWorkers.ended), ended + 1);
  await page.locator('#progress:not([hidden])', { hasText: 'Comparing snapshots' }).waitFor({ timeout: 20_000 });

  // Esc ends the Snapshot job only: the Check view's worker lives on.
  await page.keyboard.press('Escape');
  await page.waitForSelector('#progress', { state: 'hidden' });
  await snapshotStatus(page, 'warn', /Cancelled/);
  assert.equal(await page.evaluate(() => window.e2eWorkers.ended), ended + 2);
  const workers = await page.evaluate(() => window.e2eWorkers.started);
  await page.goto(`${origin}/#check`);
  await selectCheckText(page);
  await page.keyboard.insertText('{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "again", "version": "1.0.0"}');
  await page.locator('#check-result .verdict', { hasText: 'Loaded again' }).waitFor({ timeout: 5000 });
  assert.equal(await page.evaluate(() => window.e2eWorkers.started), workers, 'no worker was restarted for the Check view');

  // And the Snapshot view's next job runs on a new worker.
  await page.goto(`${origin}/#snapshot`);
  await page.locator('#snapshot-root .segmented button[data-task="lint"]').click();
  await open(page, '#snapshot-open-new', 'snapshot.json', await readFile(join(repoRoot, 'tests/fixtures/invoice-ops/snapshot.json'), 'utf8'));
  await snapshotStatus(page, 'ok', /well formed/);
  assert.deepEqual(problems, []);
  assert.deepEqual(offOrigin(requests, origin), []);
  await context.close();
});
