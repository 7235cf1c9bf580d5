// The Diff view with big documents: the main thread never stalls
// for more than 100 ms, the results are a virtual list fed by the worker,
// patches are downloaded rather than rendered whole, the merge view waits to be
// asked for, arrays are matched by `name`/`id` with the key shown and
// changeable, a fallback to positions is announced, and a clicked path scrolls
// both editors. Times are printed, never asserted (they are benchmarks).

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { offOrigin, openPage, screenshot, servePageForEachFile, temporaryDir, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const LONG_TASK_MS = 100;

/** `count` tools; B edits every 100th description, drops 5, adds 5 and moves some. */
function snapshots(count, { pretty = false, added = 5 } = {}) {
  const tool = (i, description = `Looks up invoice ${i} and returns its status and amount`) => ({
    name: `tool_${String(i).padStart(5, '0')}`,
    title: `Invoice lookup number ${i}`,
    description,
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'the invoice id' },
        limit: { type: 'integer', minimum: 1 },
        currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'], description: 'the currency the amount is shown in' },
      },
      required: ['id'],
    },
    annotations: { readOnlyHint: i % 2 === 0 },
  });
  const a = Array.from({ length: count }, (_, i) => tool(i));
  const b = a.map((t, i) => (i % 100 === 7 ? tool(i, `${t.description}, now with currency`) : t)).filter((_, i) => i % 2000 !== 3);
  for (let k = 0; k < added; k++) b.splice(k * Math.floor(count / added) + 11, 0, tool(90_000 + k));
  b.push(b.splice(20, 1)[0]);
  const text = (tools) => JSON.stringify({ plugin: { name: 'invoice-ops', version: '1.0.0' }, tools }, null, pretty ? 2 : undefined);
  return { a: text(a), b: text(b) };
}

/** Starts (or restarts) recording main-thread long tasks; `window.longTasks` holds their durations. */
async function recordLongTasks(page) {
  await page.evaluate(() => {
    window.longTasks = [];
    window.longTaskObserver ??= new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((entry) => Math.round(entry.duration))));
    window.longTaskObserver.observe({ type: 'longtask' });
  });
}

async function longTasks(page) {
  return page.evaluate(() => window.longTasks);
}

/**
 * Opens A, then B; resolves when B is picked (the diff starts then). The files
 * go through disk: a buffer would be decoded by a script in the page, a long
 * task of the test's own making.
 */
// The files stay until the test file ends (the harness removes the folder):
// the page reads a picked file when it gets to it, after setInputFiles
// returns, and a file removed before that is a NotFoundError in the page.
async function openBoth(page, { a, b }) {
  const dir = temporaryDir('apcheck-diff-');
  await writeFile(join(dir, 'a.json'), a);
  await writeFile(join(dir, 'b.json'), b);
  await page.setInputFiles('#diff-load-a', join(dir, 'a.json'));
  await page.locator('#diff-root .diff-results', { hasText: 'Open B… to compare' }).waitFor({ timeout: 60_000 });
  await page.setInputFiles('#diff-load-b', join(dir, 'b.json'));
}

async function diffPage() {
  const opened = await openPage(browser, `${origin}/#diff`);
  await waitReady(opened.page);
  await opened.page.waitForSelector('#diff-root .paths li');
  return opened;
}

async function waitForPaths(page, text) {
  await page.locator('#diff-root .diff-results:not([data-stale]) .paths li', { hasText: text }).first().waitFor({ timeout: 60_000 });
}

test('two minified 5 MB snapshots of 12,000 tools: shown quickly, keyed by name, no long task', async (t) => {
  const { context, page, requests, problems } = await diffPage();
  t.after(() => context.close());
  const pair = snapshots(12_000);
  assert.ok(pair.a.length > 4.5e6 && pair.b.length > 4.5e6, `${pair.a.length} bytes`);
  await recordLongTasks(page);
  await openBoth(page, pair);
  const opening = await longTasks(page);
  // From here: the diff, the result shown, scrolling the list.
  await recordLongTasks(page);
  const started = Date.now();
  await waitForPaths(page, 'tool_');
  const shown = Date.now() - started;
  console.log(`# 2 × ${(pair.a.length / 2 ** 20).toFixed(1)} MB minified, 12,000 tools: B opened to result shown in ${shown} ms`);
  const summary = await page.locator('#diff-root .diff-results .status').first().textContent();
  assert.match(summary, /5 additions, 6 removals, 120 changes, 1 move/);
  // The key used is shown, and it can be changed.
  const keyed = page.locator('#diff-root .array-matching .matched-key', { hasText: '/tools' });
  assert.match(await keyed.textContent(), /matched by key name/);
  await keyed.getByRole('button', { name: 'Change key…' }).click();
  assert.equal(await page.locator('#diff-root input[placeholder="/tools=name"]').inputValue(), '/tools=');
  // Minified lines are too long to draw: no merge view, no editor, a note instead.
  assert.equal(await page.locator('#diff-root .cm-mergeView').count(), 0);
  assert.equal(await page.locator('#diff-root [data-action="pretty-a"]').count(), 1);
  // Only a screenful of the 126 paths is in the DOM; scrolling fetches the rest from the worker.
  const rows = await page.locator('#diff-root .paths li').count();
  assert.ok(rows < 60, `${rows} rows drawn`);
  await page.locator('#diff-root .vlist').first().evaluate((list) => (list.scrollTop = list.scrollHeight));
  await waitForPaths(page, 'tool_11907');
  await screenshot(page, 'diff-big-minified');
  const tasks = await longTasks(page);
  console.log(`# long tasks: ${JSON.stringify(tasks)} (opening the files: ${JSON.stringify(opening)})`);
  assert.ok(tasks.every((ms) => ms <= LONG_TASK_MS), `main thread blocked: ${tasks}`);
  assert.deepEqual(problems, []);
  assert.deepEqual(offOrigin(requests, origin), []);
});

test('a clicked path scrolls both editors; next and previous walk the changes; patches are downloaded', async (t) => {
  const { context, page, problems } = await diffPage();
  t.after(() => context.close());
  // 300 new tools make a JSON Patch too big to show whole.
  const pair = snapshots(3000, { pretty: true, added: 300 });
  await recordLongTasks(page);
  await openBoth(page, pair);
  // Opening puts 1.5 MB into each editor (CodeMirror builds its document on the
  // main thread): printed, not asserted. From here: results, clicks, the patch.
  const opening = await longTasks(page);
  await recordLongTasks(page);
  await waitForPaths(page, 'tool_');
  // Above the size limit, the merge view waits for a click; the editors are plain.
  assert.equal(await page.locator('#diff-root .cm-mergeView').count(), 0);
  assert.equal(await page.locator('#diff-root .diff-plain .cm-editor').count(), 2);
  // The changed descriptions come last: scroll there (the worker sends those rows).
  await page.locator('#diff-root .vlist').first().evaluate((list) => (list.scrollTop = list.scrollHeight));
  const row = page.locator('#diff-root .paths li', { hasText: 'tool_02907' }).first();
  await row.click();
  const editors = page.locator('#diff-root .diff-plain .cm-content');
  await page.waitForFunction(() => [...document.querySelectorAll('#diff-root .diff-plain .cm-content')].every((content) => content.textContent.includes('tool_02907')));
  assert.ok((await editors.nth(0).textContent()).includes('tool_02907'));
  const selected = () => page.locator('#diff-root .paths li[aria-selected="true"]').textContent();
  const first = await selected();
  // tool_02907's is the last change: previous, then next comes back to it.
  await page.locator('[data-action="previous-change"]').click();
  await page.waitForFunction((before) => document.querySelector('#diff-root .paths li[aria-selected="true"]')?.textContent !== before, first);
  await page.locator('[data-action="next-change"]').click();
  await page.waitForFunction((before) => document.querySelector('#diff-root .paths li[aria-selected="true"]')?.textContent === before, first);
  // The JSON Patch is shown as a virtual list of operations and downloaded whole.
  await page.locator('[data-action="show-patch"]').click();
  await page.locator('#diff-root .patch-ops li code').first().waitFor();
  assert.ok((await page.locator('#diff-root .patch-ops li').count()) < 60);
  const patchSection = page.locator('#diff-root section.output', { hasText: 'JSON Patch' });
  const [download] = await Promise.all([page.waitForEvent('download'), patchSection.getByRole('button', { name: 'Download' }).click()]);
  const patch = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.ok(patch.length >= 30, `${patch.length} operations`);
  assert.ok(patch.some((op) => op.op === 'move'), 'a move');
  const tasks = await longTasks(page);
  // Printed, not asserted: scrolling 1.5 MB editors is CodeMirror's work, and
  // its cost follows the machine's load (the 5 MB test above asserts the diff's own path).
  console.log(`# long tasks (3,000 pretty tools, clicks, patch shown and downloaded): ${JSON.stringify(tasks)} (opening: ${JSON.stringify(opening)})`);
  // The merge view, on request (its text diff runs in the page, bounded by CodeMirror's budget).
  await page.locator('[data-action="merge-view"]').click();
  await page.locator('#diff-root .cm-mergeView').waitFor();
  await screenshot(page, 'diff-big-merge');
  assert.deepEqual(problems, []);
});

test('unkeyed arrays of objects: a notice says matching fell back to positions, and offers a key', async (t) => {
  const { context, page, problems } = await diffPage();
  t.after(() => context.close());
  const rows = (n, shift) => JSON.stringify({ rows: Array.from({ length: n }, (_, i) => ({ sku: `s${i + shift}`, qty: i })) }, null, 2);
  await openBoth(page, { a: rows(20, 0), b: rows(20, 1) });
  const notice = page.locator('#diff-root .array-matching .fallback', { hasText: '/rows' });
  // Should the notice not come, say what the page shows instead.
  await notice.waitFor({ timeout: 60_000 }).catch(async (error) => {
    const shown = await page.locator('#diff-root .diff-results').textContent();
    throw new Error(`${error.message}\nthe results show: ${shown}\nproblems: ${JSON.stringify(problems)}`);
  });
  assert.match(await notice.textContent(), /matched by position/);
  await notice.getByRole('button', { name: 'Set a key…' }).click();
  const keys = page.locator('#diff-root input[placeholder="/tools=name"]');
  assert.equal(await keys.inputValue(), '/rows=');
  await keys.fill('/rows=sku');
  await keys.press('Enter');
  await page.locator('#diff-root .array-matching .matched-key', { hasText: 'sku' }).waitFor();
  const summary = await page.locator('#diff-root .diff-results .status').first().textContent();
  assert.match(summary, /1 addition, 1 removal/);
  assert.deepEqual(problems, []);
});

test('collapse unchanged folds the merge view', async (t) => {
  const { context, page, problems } = await diffPage();
  t.after(() => context.close());
  const lines = (changed) => JSON.stringify({ items: Array.from({ length: 60 }, (_, i) => (i === 30 && changed ? 'changed' : `item ${i}`)) }, null, 2);
  await openBoth(page, { a: lines(false), b: lines(true) });
  await page.locator('#diff-root .paths li', { hasText: '/items/30' }).waitFor();
  assert.equal(await page.locator('#diff-root .cm-collapsedLines').count(), 0);
  await page.getByLabel('Collapse unchanged').check();
  await page.locator('#diff-root .cm-collapsedLines').first().waitFor();
  await screenshot(page, 'diff-collapsed');
  assert.deepEqual(problems, []);
});
