// Apply fix: a finding whose rule offers a fix has a button that
// applies the core's edits to the pasted file as one undoable edit, and the
// page re-checks on its own.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPage, selectCheckText, servePageForEachFile, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

// The pasted files are short: every line is drawn.
const editorText = (page) => page.evaluate(() => [...document.querySelectorAll('#check-editor .cm-line')].map((line) => line.textContent).join('\n'));

/** Waits until the shown (not stale) result matches `pattern`. */
async function resultSays(page, pattern) {
  await page.waitForFunction(
    (source) => {
      const result = document.querySelector('#check-result');
      return result.dataset.stale !== 'true' && new RegExp(source).test(result.textContent);
    },
    pattern.source,
    { timeout: 20_000 },
  );
}

test('Apply fix edits the pasted file in one undoable step and re-checks', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const editor = await selectCheckText(page);
  // No `$schema` (§5.2): AP203 rejects the plugin and offers to add it.
  const broken = '{\n  "name": "invoice-ops",\n  "version": "1.0.0",\n  "description": "Invoices."\n}\n';
  await page.keyboard.insertText(broken);
  await resultSays(page, /AP203/);
  const finding = page.locator('#check-result li.diag', { hasText: 'AP203' });
  await finding.getByRole('button', { name: /^Apply fix/ }).click();
  const fixed = await editorText(page);
  assert.match(fixed, /"\$schema": "https:\/\/agent-plugins\.org\/schemas\/1\.0\.0\/plugin\.schema\.json"/);
  // The page re-checks by itself: the rejection is gone.
  await resultSays(page, /Loaded invoice-ops/);
  assert.equal(await page.locator('#check-result li.diag', { hasText: 'AP203' }).count(), 0);
  // One Ctrl+Z takes the whole fix back.
  await editor.click();
  await page.keyboard.press('Control+z');
  assert.equal(await editorText(page), broken);
  await resultSays(page, /AP203/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a fix from a check older than the text is not applied', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const editor = await selectCheckText(page);
  await page.keyboard.insertText('{\n  "name": "invoice-ops",\n  "version": "1.0.0"\n}\n');
  await resultSays(page, /AP203/);
  // Keep the result's button, change the text, then press that button: whether or not the
  // re-check has landed meanwhile, its edits were made for the old text.
  await page.evaluate(() => (window.oldFix = document.querySelector('#check-result li.diag button[data-action="apply-fix"]')));
  await editor.click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.insertText(' ');
  await page.evaluate(() => window.oldFix.click());
  assert.match(await page.locator('#toast').textContent(), /changed since this check/);
  assert.doesNotMatch(await editorText(page), /\$schema/);
  assert.deepEqual(problems, []);
  await context.close();
});
