// Sharing never misleads: after a folder is picked, "Copy link"
// and a reload carry that package, not the pasted files behind it, so the tab
// that opens the link shows the sender's verdict; a package too big for a link
// is refused with its size named.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import { zipSync } from 'fflate';
import { dropFolder, openPage, readFolder, repoRoot, servePageForEachFile, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const BAD_MANIFEST = '{\n  "version": "1.0.0",\n  "description": "No name: a client rejects it."\n}\n';

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

/** What "Copy link" put on the clipboard (stubbed: headless has none to read), or null when refused. */
async function copiedLink(page) {
  await page.evaluate(() => {
    window.copied = null;
    document.getElementById('toast').textContent = '';
    navigator.clipboard.writeText = async (text) => {
      window.copied = text;
    };
  });
  await page.locator('.view:not([hidden]) button', { hasText: 'Copy link' }).click();
  await page.waitForFunction(() => window.copied !== null || /No link/.test(document.getElementById('toast').textContent), null, { timeout: 30_000 });
  return page.evaluate(() => window.copied);
}

const file = (path, text) => ({ path, base64: Buffer.from(text).toString('base64') });

test('a link made after a folder pick carries the package, and opens to the same verdict', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  // The pasted starter manifest is loadable: the package is not.
  await verdictSays(page, /Loaded my-plugin/);
  await dropFolder(page, '#check-drop', 'bad-plugin', [file('plugin.json', BAD_MANIFEST), { path: 'icon.bin', base64: Buffer.from([0xff, 0xfe, 0, 1]).toString('base64') }]);
  await verdictSays(page, /^Rejected/);
  const link = await copiedLink(page);
  assert.ok(link?.startsWith(`${origin}/#check/v1.`), link);
  assert.match(await page.locator('#check-keep-state').textContent(), /carries the package bad-plugin/);

  // The sender's own reload shows the package again, not the pasted files.
  await page.reload();
  await waitReady(page);
  await verdictSays(page, /^Rejected/);
  await context.close();

  const other = await openPage(browser, link);
  await waitReady(other.page);
  await verdictSays(other.page, /^Rejected/);
  // The same package: its files listed, its manifest shown with the finding.
  await other.page.locator('#check-files', { hasText: 'icon.bin' }).waitFor();
  assert.match(await other.page.locator('#check-result').textContent(), /AP\d+/);
  assert.doesNotMatch(await other.page.locator('#check-result').textContent(), /my-plugin/);
  assert.deepEqual([...problems, ...other.problems], []);
  await other.context.close();
});

test('a package too big for a link is refused with its size named, and pasting again shares the pasted files', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const noise = randomBytes(48 * 1024).toString('base64');
  await dropFolder(page, '#check-drop', 'big-plugin', [...readFolder(join(repoRoot, 'tests/fixtures/invoice-ops')), file('notes.txt', noise)]);
  await verdictSays(page, /invoice-ops/);
  assert.equal(await copiedLink(page), null);
  assert.match(await page.locator('#toast').textContent(), /No link: .*\d+ KiB, over the 32 KiB/);
  // Back to the pasted files: the link carries them again.
  await page.locator('#check-filetabs button', { hasText: 'plugin.json' }).first().click();
  await page.locator('#check-editor .cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText('{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "pasted-again", "version": "1.0.0"}');
  await verdictSays(page, /Loaded pasted-again/);
  const link = await copiedLink(page);
  await context.close();
  const other = await openPage(browser, link);
  await waitReady(other.page);
  await verdictSays(other.page, /Loaded pasted-again/);
  assert.deepEqual([...problems, ...other.problems], []);
  await other.context.close();
});

test('the Snapshot view shares its package with the snapshot', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#snapshot`);
  await waitReady(page);
  const fixtures = join(repoRoot, 'tests/fixtures/invoice-ops');
  await page.locator('#snapshot-root .segmented button[data-task="drift"]').click();
  await dropFolder(page, '#snapshot-drop', 'invoice-ops', readFolder(fixtures));
  const { readFile } = await import('node:fs/promises');
  await page.setInputFiles('#snapshot-open-new', { name: 'snapshot.json', mimeType: 'application/json', buffer: await readFile(join(fixtures, 'snapshot.json')) });
  const matches = (p) => p.locator('#snapshot-root .result-pane > .status.ok').filter({ hasText: /matches invoice-ops/ }).waitFor({ timeout: 20_000 });
  await matches(page);
  const link = await copiedLink(page);
  await context.close();
  const other = await openPage(browser, link);
  await waitReady(other.page);
  await matches(other.page);
  assert.match(await other.page.locator('#snapshot-root .dropzone').textContent(), /Package: invoice-ops/);
  assert.deepEqual([...problems, ...other.problems], []);
  await other.context.close();
});

test('a zip travels as the archive itself, and opens to the same verdict', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const archive = Buffer.from(zipSync({ 'plugin.json': new TextEncoder().encode(BAD_MANIFEST) }));
  await page.setInputFiles('#check-pick-zip', { name: 'zipped-plugin.zip', mimeType: 'application/zip', buffer: archive });
  await verdictSays(page, /^Rejected/);
  const link = await copiedLink(page);
  assert.match(await page.locator('#check-keep-state').textContent(), /carries the package zipped-plugin/);
  await context.close();
  const other = await openPage(browser, link);
  await waitReady(other.page);
  await verdictSays(other.page, /^Rejected/);
  // Read from the archive, as the sender's was: no symlink caveat, which only a folder gets.
  assert.doesNotMatch(await other.page.locator('#check-result').textContent(), /symlinks not seen/);
  assert.deepEqual([...problems, ...other.problems], []);
  await other.context.close();
});
