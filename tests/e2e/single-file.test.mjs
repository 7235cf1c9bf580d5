// dist/apcheck.html opened from disk (file://) with no server: the core runs
// (in a blob worker, or on the main thread where those are refused), a folder
// drop is checked, and nothing is requested but the file itself.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { dropFolder, launch, openPage, readFolder, repoRoot, requireBuild, screenshot, shared, waitReady } from './harness.mjs';

const pageUrl = pathToFileURL(join(repoRoot, 'dist/apcheck.html')).href;
let browser;

before(async () => {
  requireBuild();
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

function onlyTheFile(requests) {
  return requests.filter((url) => url !== pageUrl && !url.startsWith('blob:') && !url.startsWith('data:'));
}

test('the single file works from file:// with no network', async () => {
  const { context, page, requests, problems } = await openPage(browser, pageUrl);
  await waitReady(page);
  const mode = await page.evaluate(() => document.documentElement.dataset.core);
  assert.ok(['worker', 'main-thread'].includes(mode), `core mode ${mode}`);
  const root = join(shared, 'corpus/real/team-telnyx__ai__root');
  await dropFolder(page, '#check-drop', 'team-telnyx__ai__root', readFolder(root));
  await page.waitForFunction(() => document.querySelector('#check-result .hops')?.textContent.includes('team-telnyx__ai__root'), null, { timeout: 15_000 });
  assert.match(await page.locator('#check-result .verdict-title').textContent(), /Loaded telnyx/);
  await page.goto(`${pageUrl}#rules`);
  await page.waitForSelector('#rules-list li a');
  await screenshot(page, 'single-file-check');
  console.log(`dist/apcheck.html under file:// runs the core in: ${mode}`);
  assert.deepEqual(problems, []);
  assert.deepEqual(onlyTheFile(requests), []);
  // Its policy refuses connections too.
  const refused = await page.evaluate(() => fetch(location.href).then(() => false, () => true));
  assert.ok(refused, 'fetch() went through: connect-src is not enforced');
  await context.close();
});

test('without blob workers the single file falls back to the main thread', async () => {
  const { context, page, problems } = await openPage(browser, 'about:blank');
  // Simulate a browser that refuses workers from blob URLs under file://.
  await page.addInitScript(() => {
    const RealWorker = window.Worker;
    window.Worker = function RefusingWorker(url, options) {
      if (String(url).startsWith('blob:')) throw new DOMException('refused', 'SecurityError');
      return new RealWorker(url, options);
    };
  });
  await page.goto(pageUrl);
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.core), 'main-thread');
  await page.waitForSelector('#check-result .verdict');
  assert.deepEqual(problems, []);
  await context.close();
});
