// The Check view in a real browser: cold load time, pasted files, a real
// corpus package dropped as a folder, the big telnyx root without freezing the
// page — and, over all of it, no request anywhere but the page's own assets.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  dropFolder,
  foreignRequests,
  launch,
  openPage,
  readFolder,
  requireBuild,
  screenshot,
  serve,
  shared,
  waitReady,
} from './harness.mjs';

const OWN_ASSETS = ['/', '/index.html', '/build/app.js', '/build/app.css', '/build/worker.js'];

let browser;
let server;
let origin;

before(async () => {
  requireBuild();
  ({ server, origin } = await serve());
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
});

function isOwnAsset(url) {
  if (url.startsWith('blob:') || url.startsWith('data:')) return true;
  const parsed = new URL(url);
  return parsed.origin === origin && OWN_ASSETS.includes(parsed.pathname);
}

test('cold load is interactive in under a second and sends the CSP', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/`);
  const started = Date.now();
  await page.reload();
  await page.waitForSelector('#view-check:not([hidden]) .cm-editor');
  const interactive = Date.now() - started;
  await waitReady(page);
  assert.ok(interactive < 1000, `first interactive view after ${interactive} ms`);
  const response = await page.request.get(`${origin}/build/worker.js`);
  assert.match(response.headers()['content-security-policy'], /connect-src 'none'/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('pasted plugin.json is checked as you type, and a finding jumps to its span', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await page.waitForSelector('#check-result .verdict');
  const editor = page.locator('#check-editor .cm-content');
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText('{\n  "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",\n  "name": "Bad Name",\n  "version": "1"\n}\n');
  await page.waitForFunction(() => document.querySelector('#check-result .verdict-title')?.textContent.length > 0);
  await page.waitForTimeout(700);
  const verdict = await page.locator('#check-result .verdict-title').textContent();
  assert.ok(verdict.length > 0);
  const where = page.locator('#check-result button.where').first();
  if ((await where.count()) > 0) {
    await where.click();
    assert.ok(await page.locator('#check-editor .cm-editor.cm-focused').count(), 'the editor has focus after a jump');
  }
  await screenshot(page, 'check-paste');
  assert.deepEqual(problems, []);
  assert.deepEqual(foreignRequests(requests, isOwnAsset), []);
  await context.close();
});

test('a corpus folder dropped shows its hops and components', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const root = 'fixtures/777genius__universal-agent-plugins';
  const [first] = readFolder(join(shared, 'corpus', root)).map((f) => f.path.split('/')[0]);
  const files = readFolder(join(shared, 'corpus', root, first));
  await dropFolder(page, '#check-drop', first, files);
  await page.waitForFunction((name) => document.querySelector('#check-result .hops')?.textContent.includes(name), first);
  const hops = await page.locator('#check-result .hop').count();
  assert.equal(hops, 4, 'root, manifest, skills, MCP');
  assert.match(await page.locator('#check-result .hop').first().textContent(), /cannot see symlinks/);
  await screenshot(page, 'check-drop');
  assert.deepEqual(problems, []);
  assert.deepEqual(foreignRequests(requests, isOwnAsset), []);
  await context.close();
});

test('the telnyx root (1,800+ entries) checks in under 2 s without freezing the page', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const files = readFolder(join(shared, 'corpus/real/team-telnyx__ai__root'));
  assert.ok(files.length > 1000);
  const droppedAt = await dropFolder(page, '#check-drop', 'team-telnyx__ai__root', files);
  const shownAt = await page.waitForFunction(
    () => document.querySelector('#check-result .hops')?.textContent.includes('team-telnyx__ai__root') && performance.now(),
    null,
    { timeout: 10_000, polling: 'raf' },
  );
  const elapsed = (await shownAt.jsonValue()) - droppedAt;
  const longestGap = await page.evaluate(() => (clearInterval(window.gapTimer), window.longestGap));
  assert.ok(elapsed < 2000, `result after ${Math.round(elapsed)} ms`);
  console.log(`telnyx drop → verdict: ${Math.round(elapsed)} ms, longest main-thread gap ${Math.round(longestGap)} ms`);
  assert.ok(longestGap < 250, `the page froze for ${Math.round(longestGap)} ms`);
  assert.match(await page.locator('#check-result .hop').first().textContent(), /entries read/);
  await screenshot(page, 'check-telnyx');
  assert.deepEqual(problems, []);
  assert.deepEqual(foreignRequests(requests, isOwnAsset), []);
  await context.close();
});
