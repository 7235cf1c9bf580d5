// Keep and share without a server (issue 10 §4): pasted files survive a
// reload, and "Copy link" carries them in the URL's fragment to another
// browser, within a stated size limit.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { openPage, servePageForEachFile, waitReady } from './harness.mjs';

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
    { timeout: 20_000 },
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
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.waitForFunction(() => window.copied !== null || /No link/.test(document.getElementById('toast').textContent), null, { timeout: 10_000 });
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
