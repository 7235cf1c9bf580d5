// A result never describes other inputs than the ones on screen:
// in every view, an edit marks the shown result stale at once (before any
// re-run answers), the re-run replaces it, and a cancelled run says so.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openPage, readFolder, repoRoot, servePageForEachFile, shared, temporaryDir, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const fixtures = join(repoRoot, 'tests/fixtures/invoice-ops');

/** Replaces the text of the editor labelled `label` and, in the same task, reads what the result says. */
async function editAndLook(page, label, text, resultSelector) {
  await page.locator(`[aria-label="${label}"]`).first().click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
  return page.evaluate((selector) => {
    const element = document.querySelector(selector);
    return { stale: element.dataset.stale === 'true', text: element.textContent };
  }, resultSelector);
}

async function settled(page, selector, pattern) {
  await page.waitForFunction(
    ({ selector, source }) => {
      const element = document.querySelector(selector);
      return element && element.dataset.stale !== 'true' && new RegExp(source).test(element.textContent);
    },
    { selector, source: pattern.source },
    { timeout: 10_000 },
  );
}

test('Snapshot lint: replacing a good snapshot with a bad one never leaves "well formed" as current', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#snapshot`);
  await waitReady(page);
  await editAndLook(page, 'Snapshot', readFileSync(join(fixtures, 'snapshot.json'), 'utf8'), '#snapshot-result');
  await settled(page, '#snapshot-result', /well formed/);
  const seen = await editAndLook(page, 'Snapshot', '{"not": "a snapshot"}', '#snapshot-result');
  assert.ok(seen.stale, `the old verdict was shown as current: ${seen.text}`);
  await settled(page, '#snapshot-result', /not a usable snapshot|error/);
  assert.doesNotMatch(await page.locator('#snapshot-result').textContent(), /well formed/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Tool call: arguments that stop fitting are never shown as "valid"', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#snapshot`);
  await waitReady(page);
  await editAndLook(page, 'Snapshot', readFileSync(join(fixtures, 'snapshot.json'), 'utf8'), '#snapshot-result');
  await page.locator('#snapshot-root .segmented button[data-task="call"]').click();
  const tool = await page.locator('#snapshot-root select[aria-label="Tool"] option').first().getAttribute('value');
  assert.ok(tool, 'the snapshot lists tools');
  await settled(page, '#snapshot-result', /valid|not valid/);
  const seen = await editAndLook(page, 'tools/call arguments', '{"surely_not_an_argument": [1, 2, 3]}', '#snapshot-result');
  assert.ok(seen.stale, `the old verdict was shown as current: ${seen.text}`);
  await settled(page, '#snapshot-result', /not valid/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Format: a parse error empties the Result pane', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#format`);
  await waitReady(page);
  await settled(page, '#format-status', /Formatted/);
  const seen = await editAndLook(page, 'JSON to format', '{"a": 1,, }', '#format-status');
  assert.ok(seen.stale, 'the status still said "Formatted." for the new input');
  await settled(page, '#format-status', /Parse error/);
  assert.equal((await page.locator('#format-output .cm-content').textContent()).trim(), '', 'the previous output stayed');
  assert.deepEqual(problems, []);
  await context.close();
});

test('Validate: an edit marks the verdict stale until it is re-checked', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#schema`);
  await waitReady(page);
  await settled(page, '#schema-root .schema-results', /failure|Valid/);
  const seen = await editAndLook(page, 'JSON document to validate', '{"name": "ok-name", "version": "1.0.0"}', '#schema-root .schema-results');
  assert.ok(seen.stale, `the old verdict was shown as current: ${seen.text}`);
  await settled(page, '#schema-root .schema-results', /failure|Valid/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Diff: Open A, Open B, Esc says "Cancelled", never the sample\'s paths', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#diff`);
  await waitReady(page);
  await settled(page, '#diff-root .diff-results', /addition/);
  // Big enough that the diff is still running when Esc is pressed.
  const big = (tag) => JSON.stringify({ items: Array.from({ length: 60_000 }, (_, i) => ({ id: i, tag, value: `${tag}-${i}` })) });
  await page.setInputFiles('#diff-load-a', { name: 'a.json', mimeType: 'application/json', buffer: Buffer.from(big('a')) });
  await page.setInputFiles('#diff-load-b', { name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(big('b')) });
  // Esc the moment the progress bar shows (the main thread may be busy mounting the big documents, so a
  // test-side wait could miss the bar); the page's own Esc handler does the cancelling.
  await page.evaluate(() => {
    const bar = document.getElementById('progress');
    const escape = () => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    if (!bar.hidden) return escape();
    new MutationObserver((_, observer) => {
      if (bar.hidden) return;
      observer.disconnect();
      escape();
    }).observe(bar, { attributes: true, attributeFilter: ['hidden'] });
  });
  const afterOpen = await page.evaluate(() => {
    const results = document.querySelector('#diff-root .diff-results');
    return results.dataset.stale === 'true' || /Cancelled/.test(results.textContent);
  });
  assert.ok(afterOpen, 'the sample diff was shown as current after Open');
  // Cancelled, or (when the diff beat the Esc) the diff of A and B: never the sample's.
  await settled(page, '#diff-root .diff-results', /Cancelled|change/);
  assert.doesNotMatch(await page.locator('#diff-root .diff-results').textContent(), /\/tools\//, "the sample's paths are shown");
  assert.deepEqual(problems, []);
  await context.close();
});

test('Check: Check re-checks the picked folder; an empty folder replaces the previous verdict', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await settled(page, '#check-result', /Loaded my-plugin/);
  const name = 'DietrichGebert__ponytail__root';
  const picked = temporaryDir('apcheck-pick-');
  const folder = join(picked, name);
  for (const file of readFolder(join(shared, 'corpus/nearmiss', name))) {
    mkdirSync(join(folder, file.path, '..'), { recursive: true });
    writeFileSync(join(folder, file.path), Buffer.from(file.base64, 'base64'));
  }
  await page.setInputFiles('#check-pick-folder', folder);
  await settled(page, '#check-result', new RegExp(name));
  await page.locator('#check-run').click();
  await settled(page, '#check-result', new RegExp(name));
  assert.doesNotMatch(await page.locator('#check-result').textContent(), /my-plugin/, 'Check replaced the picked package by the pasted starter');

  // Editing the pasted manifest marks the shown verdict stale at once.
  await page.locator('#check-filetabs button', { hasText: /^plugin\.json$/ }).click();
  const seen = await editAndLook(page, 'Pasted file', '{"name": "Bad Name"}', '#check-result');
  assert.ok(seen.stale, 'the previous verdict was shown as current');
  await settled(page, '#check-result', /Rejected|error/);

  const empty = join(picked, 'empty');
  mkdirSync(empty);
  await page.setInputFiles('#check-pick-folder', empty);
  await settled(page, '#check-result', /no plugin\.json|Rejected/i);
  assert.doesNotMatch(await page.locator('#check-result').textContent(), /Bad Name/);
  assert.deepEqual(problems, []);
  await context.close();
});
