// The Snapshot view with the invoice-ops reference fixtures: build the expected
// snapshot from a dropped folder and a tools/list capture, drift against the
// folder, the change report with its SemVer verdict, a tools/call check, and lint.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  dropFiles,
  dropFolder,
  offOrigin,
  openPage,
  readFolder,
  repoRoot,
  screenshot,
  servePageForEachFile,
  waitReady,
} from './harness.mjs';

const fixtures = join(repoRoot, 'tests/fixtures/invoice-ops');
let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const ownOrigin = (requests) => offOrigin(requests, origin);

async function typeInto(page, label, text) {
  await page.locator(`#snapshot-root [aria-label="${label}"]`).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

async function task(page, name) {
  await page.locator(`#snapshot-root .segmented button[data-task="${name}"]`).click();
}

/** Waits until the result's status line has `tone` and matches `pattern` (a run replaces it). */
async function expectStatus(page, tone, pattern) {
  const line = page.locator(`#snapshot-root .result-pane > .status.${tone}`).filter({ hasText: pattern });
  await line.waitFor({ timeout: 5000 });
}

test('build, drift, changes and call on the invoice-ops fixtures', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#snapshot`);
  await waitReady(page);
  const reference = await readFile(join(fixtures, 'snapshot.json'), 'utf8');

  // Build: folder + tools/list capture → the reference snapshot, downloadable.
  await task(page, 'build');
  await dropFolder(page, '#snapshot-drop', 'invoice-ops', readFolder(fixtures));
  await page.fill('#snapshot-root input[aria-label="Server id of the tools/list capture"]', 'invoice-tools');
  await typeInto(page, 'tools/list capture', await readFile(join(fixtures, 'tools-list.json'), 'utf8'));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expectStatus(page, 'ok', /Built the snapshot of invoice-ops 1\.2\.0/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download snapshot' }).click()]);
  assert.equal((await readFile(await download.path(), 'utf8')).trim(), reference.trim());
  await screenshot(page, 'snapshot-build');

  // Drift: the built snapshot matches its folder; a stale version does not.
  await page.getByRole('button', { name: 'Use as the snapshot' }).click();
  await expectStatus(page, 'ok', /matches invoice-ops/);
  await typeInto(page, 'Snapshot', reference.replace('"version": "1.2.0"', '"version": "1.1.0"'));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expectStatus(page, 'bad', /difference/);
  await screenshot(page, 'snapshot-drift');

  // Changes: a removed tool needs a major bump; a minor bump is not enough.
  await task(page, 'changes');
  await typeInto(page, 'Old snapshot', reference);
  const removed = JSON.parse(reference);
  removed.plugin.version = '1.3.0';
  removed.tools = [];
  await typeInto(page, 'Snapshot', `${JSON.stringify(removed, null, 2)}\n`);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expectStatus(page, 'bad', /MAJOR bump.*not enough/);
  assert.ok((await page.locator('#snapshot-root table.components tbody tr').count()) >= 1);
  await screenshot(page, 'snapshot-changes');

  // Call: arguments against the tool picked from the snapshot.
  await typeInto(page, 'Snapshot', reference);
  await task(page, 'call');
  await typeInto(page, 'tools/call arguments', await readFile(join(fixtures, 'arguments.json'), 'utf8'));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expectStatus(page, 'ok', /valid for invoice-tools\/query_invoices/);
  await typeInto(page, 'tools/call arguments', '{"week": "last week"}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expectStatus(page, 'bad', /not valid/);
  await screenshot(page, 'snapshot-call');

  // Lint: the reference is well formed and agrees with its files; a broken one is not usable.
  await task(page, 'lint');
  await expectStatus(page, 'ok', /well formed and agrees with the files of invoice-ops/);
  await typeInto(page, 'Snapshot', '{"plugin": {}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expectStatus(page, 'bad', /not a usable snapshot/);
  await screenshot(page, 'snapshot-lint');

  assert.deepEqual(problems, []);
  assert.deepEqual(ownOrigin(requests), []);
  await context.close();
});

test('two snapshot files dropped together are compared, the first by name as the old one', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#snapshot`);
  await waitReady(page);
  const reference = await readFile(join(fixtures, 'snapshot.json'), 'utf8');
  const next = JSON.parse(reference);
  next.plugin.version = '2.0.0';
  next.tools = [];
  await dropFiles(page, '#snapshot-drop', [
    { name: 'v2.snapshot.json', text: JSON.stringify(next, null, 2) },
    { name: 'v1.snapshot.json', text: reference },
  ]);
  await expectStatus(page, 'ok', /MAJOR bump.*1\.2\.0 → 2\.0\.0.*enough/);
  assert.equal(await page.locator('#snapshot-root .segmented button[aria-pressed="true"]').textContent(), 'Changes');
  assert.deepEqual(problems, []);
  await context.close();
});
