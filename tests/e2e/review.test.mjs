// The reviewer's flow in the Snapshot view: a sample pair on a first visit,
// said what it is; each row of the change report opens its subject's old and
// new JSON in the Diff view in one click; the verdict and the table copied as
// the Markdown `apcheck changes --format markdown` prints.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openPage, repoRoot, screenshot, servePageForEachFile, temporaryDir, waitReady } from './harness.mjs';

const cli = process.env.APCHECK_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'apcheck');

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const snapshotStatus = (page, tone, pattern) => page.locator(`#snapshot-root .result-pane > .status.${tone}`).filter({ hasText: pattern }).waitFor({ timeout: 20_000 });

/** The Snapshot view's documents as it keeps them (what is on screen, to the byte). */
async function keptDocuments(page) {
  await page.waitForFunction(() => localStorage.getItem('apcheck.snapshot') !== null, null, { timeout: 5000 });
  return page.evaluate(() => JSON.parse(localStorage.getItem('apcheck.snapshot')));
}

/** What the CLI prints for `changes` on these documents, named as the page names them. */
function cliMarkdown(old, snapshot) {
  const dir = temporaryDir('apcheck-review-');
  writeFileSync(join(dir, 'old.snapshot.json'), old);
  writeFileSync(join(dir, 'snapshot.json'), snapshot);
  try {
    return execFileSync(cli, ['changes', 'old.snapshot.json', 'snapshot.json', '--format', 'markdown'], { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    // Exit 1: the bump does not cover the changes; the output is still the report.
    if (error.status === 1) return error.stdout;
    throw error;
  }
}

test('a first visit shows a sample pair, says what a snapshot is, and compares it', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#snapshot`);
  await waitReady(page);
  await page.locator('#snapshot-root .intro').filter({ hasText: /capability snapshot is the JSON record of what a plugin offers/ }).waitFor();
  // The sample is a valid snapshot: Lint, the task shown first, finds nothing.
  await snapshotStatus(page, 'ok', /well formed/);
  assert.equal(await page.locator('#snapshot-root .result-pane > .status.bad').count(), 0);

  await page.locator('#snapshot-root .segmented button[data-task="changes"]').click();
  await snapshotStatus(page, 'bad', /MAJOR bump; the version went 1\.4\.0 → 1\.5\.0 \(a minor bump\): not enough/);
  const rows = page.locator('#snapshot-root table.components tbody tr');
  assert.deepEqual(await rows.locator('td:nth-child(2)').allTextContents(), ['tool-renamed', 'tool-added', 'tool-input-schema']);
  await screenshot(page, 'review-sample-changes');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a row of the change report opens its old and new JSON side by side in the Diff view', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#snapshot`);
  await waitReady(page);
  await page.locator('#snapshot-root .segmented button[data-task="changes"]').click();
  await snapshotStatus(page, 'bad', /MAJOR bump/);

  // The newly required input: one click, and the Diff view shows get_issue before and after, marked.
  await page.getByRole('button', { name: 'Diff tracker/get_issue' }).click();
  await page.waitForURL(/#diff$/);
  const sides = page.locator('#diff-root .cm-mergeView .cm-editor');
  await page.locator('#diff-root .diff-results .status.warn').filter({ hasText: /1 addition/ }).waitFor({ timeout: 20_000 });
  assert.match(await sides.nth(0).locator('.cm-content').textContent(), /"name": "get_issue".*"required": \[.*"id"\s*\]/s);
  assert.match(await sides.nth(1).locator('.cm-content').textContent(), /"required": \[.*"id",\s*"repo"\s*\]/s);
  // The merge view's marks: the added "repo" is highlighted on the new side.
  assert.match(await sides.nth(1).locator('.cm-changedLine').allTextContents().then((lines) => lines.join('\n')), /"repo"/);
  assert.match(await page.locator('#diff-root ol.paths').textContent(), /required/);
  // With no array matched by key there is no note, and no stray "null" in its place.
  assert.equal(await page.locator('#diff-root .diff-results').evaluate((results) => [...results.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim()).length), 0);
  await screenshot(page, 'review-row-diff');

  // A renamed tool opens under its old name on the left and its new one on the right.
  await page.goBack();
  await page.waitForURL(/#snapshot$/);
  await snapshotStatus(page, 'bad', /MAJOR bump/);
  await page.getByRole('button', { name: 'Diff tracker/find_issues' }).click();
  await page.locator('#diff-root .diff-results .status.warn').filter({ hasText: /1 change/ }).waitFor({ timeout: 20_000 });
  assert.match(await sides.nth(0).locator('.cm-content').textContent(), /"name": "search_issues"/);
  assert.match(await sides.nth(1).locator('.cm-content').textContent(), /"name": "find_issues"/);

  // An added tool has nothing on the old side.
  await page.goBack();
  await snapshotStatus(page, 'bad', /MAJOR bump/);
  await page.getByRole('button', { name: 'Diff tracker/close_issue' }).click();
  await page.locator('#diff-root .diff-results .status.warn').filter({ hasText: /1 change/ }).waitFor({ timeout: 20_000 });
  assert.equal((await sides.nth(0).locator('.cm-content').textContent()).trim(), 'null');
  assert.match(await sides.nth(1).locator('.cm-content').textContent(), /"name": "close_issue"/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the verdict and the table are copied as the Markdown the CLI prints for a pull request', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#snapshot`);
  await waitReady(page);
  await page.locator('#snapshot-root .segmented button[data-task="changes"]').click();
  await snapshotStatus(page, 'bad', /MAJOR bump/);
  // A subject and a detail that Markdown would read as markup: a pipe, a backtick, an @mention, HTML.
  const documents = await keptDocuments(page);
  const hostile = documents.snapshot.replace('"close_issue"', '"close|`x`@team<b>"');
  await page.locator('#snapshot-root [aria-label="Snapshot"]').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(hostile);
  await snapshotStatus(page, 'bad', /MAJOR bump/);
  await page.locator('#snapshot-root table.components').filter({ hasText: 'close|`x`@team<b>' }).waitFor();

  await page.evaluate(() => {
    window.copied = null;
    navigator.clipboard.writeText = async (text) => {
      window.copied = text;
    };
  });
  await page.getByRole('button', { name: 'Copy Markdown for a pull request' }).click();
  await page.waitForFunction(() => window.copied !== null);
  const copied = await page.evaluate(() => window.copied);
  const kept = await keptDocuments(page);
  assert.equal(kept.snapshot, hostile);
  assert.equal(copied, cliMarkdown(kept.old, kept.snapshot));
  // The pipes of the name, in the subject and in the detail alike, are escaped: the row keeps its four cells.
  const row = copied.split('\n').find((line) => line.startsWith('| minor | tool-added |'));
  assert.equal(row.match(/(?<!\\)\|/g).length, 5, row);
  assert.match(copied, /^\*\*Needs a major bump; version 1\.4\.0 → 1\.5\.0 is a minor bump\\: not covered\.\*\*$/m);
  assert.deepEqual(problems, []);
  await context.close();
});
