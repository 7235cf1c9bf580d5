// Keep and share without a server, in every view with pasted
// documents (Check, Format, Schema, Diff, Snapshot): they survive a reload,
// and "Copy link" carries them in the URL's fragment to another browser,
// which opens the same view with them, within stated size limits.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openPage, repoRoot, servePageForEachFile, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const MANIFEST = '{\n  "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",\n  "name": "kept-plugin",\n  "version": "2.0.0"\n}\n';

const editorText = (page) => page.evaluate(() => [...document.querySelectorAll('#check-editor .cm-line')].map((line) => line.textContent).join('\n'));

async function paste(page, text) {
  await page.locator('#check-editor .cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

async function verdictSays(page, pattern) {
  await page.waitForFunction(
    (source) => {
      const result = document.querySelector('#check-result');
      return result.dataset.stale !== 'true' && new RegExp(source).test(result.querySelector('.verdict')?.textContent ?? '');
    },
    pattern.source,
    { timeout: 30_000 },
  );
}

/** What "Copy link" put on the clipboard (the clipboard itself is stubbed: headless has none to read). */
async function copiedLink(page) {
  await page.evaluate(() => {
    window.copied = null;
    navigator.clipboard.writeText = async (text) => {
      window.copied = text;
    };
  });
  await page.locator('.view:not([hidden]) button', { hasText: 'Copy link' }).click();
  await page.waitForFunction(() => window.copied !== null || /No link/.test(document.getElementById('toast').textContent), null, { timeout: 30_000 });
  return page.evaluate(() => window.copied);
}

test('pasted files survive a reload', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await paste(page, MANIFEST);
  await verdictSays(page, /Loaded kept-plugin 2\.0\.0/);
  await page.reload();
  await waitReady(page);
  await verdictSays(page, /Loaded kept-plugin 2\.0\.0/);
  assert.equal(await editorText(page), MANIFEST);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a copied link opens the same files in another browser', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await paste(page, MANIFEST);
  const link = await copiedLink(page);
  assert.ok(link.startsWith(`${origin}/#check/v1.`), link);
  // The privacy reasoning and the limit are on screen.
  assert.match(await page.locator('#check-keep-note').textContent(), /never send to a server.*32 KiB/s);
  await context.close();

  // A new context: nothing kept there, the link alone brings the files.
  const other = await openPage(browser, link);
  await waitReady(other.page);
  await verdictSays(other.page, /Loaded kept-plugin 2\.0\.0/);
  assert.equal(await editorText(other.page), MANIFEST);
  assert.equal(await other.page.evaluate(() => location.hash), '#check');
  assert.deepEqual([...problems, ...other.problems], []);
  await other.context.close();
});

test('files too big for a link are refused, with the limit named', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  // Random text hardly compresses: well over 32 KiB once encoded.
  const noise = randomBytes(40_000).toString('base64');
  await paste(page, `{"description": "${noise}"}`);
  assert.equal(await copiedLink(page), null);
  assert.match(await page.locator('#toast').textContent(), /No link: .*over the 32 KiB/);
  assert.deepEqual(problems, []);
  await context.close();
});

/** The text of the editor labelled `label`. */
const textOf = (page, label) => page.evaluate((label) => [...document.querySelectorAll(`.view:not([hidden]) [aria-label="${label}"] .cm-line`)].map((line) => line.textContent).join('\n'), label);

async function typeInto(page, label, text) {
  await page.locator(`.view:not([hidden]) [aria-label="${label}"]`).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

/** Waits until the editor labelled `label` holds `text`. */
async function holds(page, label, text) {
  await page.waitForFunction(
    ({ label, text }) => [...document.querySelectorAll(`.view:not([hidden]) [aria-label="${label}"] .cm-line`)].map((line) => line.textContent).join('\n') === text,
    { label, text },
    { timeout: 30_000 },
  );
}

/** Waits until what a view keeps (written a moment after the last edit) is in this browser's storage. */
async function keptAs(page, view, member, text) {
  await page.waitForFunction(({ view, member, text }) => JSON.parse(localStorage.getItem(`apcheck.${view}`) ?? '{}')[member] === text, { view, member, text }, { timeout: 30_000 });
}

const SNAPSHOT = readFileSync(join(repoRoot, 'tests/fixtures/invoice-ops/snapshot.json'), 'utf8');
const ARGUMENTS = '{"week": "2026-W09", "status": "paid"}';
const DOCUMENT = '{"name": "Kept Name"}';
const SCHEMA = '{"type": "object", "properties": {"name": {"type": "string", "pattern": "^[a-z]+$"}}}';

// Per view: how to put documents in, and how to see that they (and what they are checked as) came back.
const VIEWS = {
  format: {
    async fill(page) {
      await typeInto(page, 'JSON to format', '{"b": 1, "a": [1.50]}');
      await page.getByLabel('Sort keys').check();
      await keptAs(page, 'format', 'options', JSON.stringify({ indent: 2, minify: false, sortKeys: true, jsonc: false }));
    },
    async expect(page) {
      await holds(page, 'JSON to format', '{"b": 1, "a": [1.50]}');
      assert.equal(await page.getByLabel('Sort keys').isChecked(), true);
      await page.waitForFunction(() => /^\{\s*"a": \[\s*1\.50\s*\],\s*"b": 1\s*\}\s*$/.test(document.querySelector('[aria-label="Formatted JSON"]').textContent), null, { timeout: 30_000 });
    },
  },
  schema: {
    async fill(page) {
      await page.locator('#schema-root select').selectOption('');
      await typeInto(page, 'JSON document to validate', DOCUMENT);
      await typeInto(page, 'JSON Schema', SCHEMA);
      await keptAs(page, 'schema', 'schema', SCHEMA);
    },
    async expect(page) {
      await holds(page, 'JSON document to validate', DOCUMENT);
      await holds(page, 'JSON Schema', SCHEMA);
      assert.equal(await page.locator('#schema-root select').inputValue(), '');
      await page.locator('#schema-root .status.bad').filter({ hasText: /1 failure against your schema/ }).waitFor({ timeout: 30_000 });
    },
  },
  diff: {
    async fill(page) {
      await typeInto(page, 'Document A (before)', '{"kept": 1}');
      await typeInto(page, 'Document B (after)', '{"kept": 2}');
      await keptAs(page, 'diff', 'b', '{"kept": 2}');
    },
    async expect(page) {
      await holds(page, 'Document A (before)', '{"kept": 1}');
      await holds(page, 'Document B (after)', '{"kept": 2}');
      await page.locator('#diff-root .status.warn').filter({ hasText: /1 change/ }).waitFor({ timeout: 30_000 });
    },
  },
  snapshot: {
    async fill(page) {
      await typeInto(page, 'Snapshot', SNAPSHOT);
      await page.locator('#snapshot-root .segmented button[data-task="call"]').click();
      await typeInto(page, 'tools/call arguments', ARGUMENTS);
      await keptAs(page, 'snapshot', 'arguments', ARGUMENTS);
    },
    async expect(page) {
      await holds(page, 'tools/call arguments', ARGUMENTS);
      assert.equal(await textOf(page, 'Snapshot'), SNAPSHOT);
      assert.equal(await page.locator('#snapshot-root .segmented button[aria-pressed="true"]').textContent(), 'Tool call');
      await page.locator('#snapshot-result > .status.ok').filter({ hasText: /valid for invoice-tools\/query_invoices/ }).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('#call-form .field[data-name="status"] select').inputValue(), '1');
    },
  },
};

for (const [view, { fill, expect }] of Object.entries(VIEWS)) {
  test(`${view}: pasted documents survive a reload, and a link opens them in ${view} in another browser`, { timeout: 120_000 }, async () => {
    const { context, page, problems } = await openPage(browser, `${origin}/#${view}`);
    await waitReady(page);
    await fill(page);
    await page.reload();
    await waitReady(page);
    await expect(page);
    const link = await copiedLink(page);
    assert.ok(link.startsWith(`${origin}/#${view}/v1.`), link);
    assert.match(await page.locator(`#${view}-keep-note`).textContent(), /never send to a server.*32 KiB/s);
    await context.close();

    // A new context holds nothing: the link alone brings the documents, to the right view.
    const other = await openPage(browser, link);
    await waitReady(other.page);
    await other.page.waitForSelector(`#view-${view}:not([hidden])`);
    await expect(other.page);
    assert.equal(await other.page.evaluate(() => location.hash), `#${view}`);
    assert.deepEqual([...problems, ...other.problems], []);
    await other.context.close();
  });
}

test('a link opened in a tab that shows the page already opens its files', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#diff`);
  await waitReady(page);
  await VIEWS.diff.fill(page);
  const link = await copiedLink(page);
  await typeInto(page, 'Document A (before)', '{"other": true}');
  await page.evaluate((link) => (location.hash = new URL(link).hash), link);
  await VIEWS.diff.expect(page);
  assert.deepEqual(problems, []);
  await context.close();
});

test('documents too big to link or to keep say so, and a reload does not bring back older ones', { timeout: 120_000 }, async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#diff`);
  await waitReady(page);
  await VIEWS.diff.fill(page);
  // Random text hardly compresses: well over 32 KiB once encoded.
  await typeInto(page, 'Document B (after)', `{"noise": "${randomBytes(40_000).toString('base64')}"}`);
  assert.equal(await copiedLink(page), null);
  assert.match(await page.locator('#diff-keep-state').textContent(), /No link: .*over the 32 KiB/);

  // Over what a view keeps: not kept, said on screen, and the older input is gone from storage.
  await page.evaluate(() => (location.hash = 'format'));
  await VIEWS.format.fill(page);
  const lines = Array.from({ length: 20_000 }, (_, index) => `  "line ${index}: ${'x'.repeat(40)}"`);
  await page.setInputFiles('#format-open', { name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(`[\n${lines.join(',\n')}\n]`) });
  await page.locator('#format-keep-state').filter({ hasText: /Not kept: .*over the 1024 KiB a view keeps/ }).waitFor({ timeout: 30_000 });
  assert.equal(await page.evaluate(() => localStorage.getItem('apcheck.format')), null);
  await page.reload();
  await waitReady(page);
  await page.waitForFunction(() => document.querySelector('[aria-label="JSON to format"]')?.textContent.startsWith('{"name":"my-plugin"'), null, { timeout: 30_000 });
  assert.deepEqual(problems, []);
  await context.close();
});
