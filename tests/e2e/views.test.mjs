// Rule docs offline, downloads rendered by the core, keyboard use, and the
// page in dark mode on a narrow window — with no request leaving the page.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { dropFolder, launch, openPage, readFolder, requireBuild, screenshot, serve, shared, waitReady } from './harness.mjs';

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

const ownOrigin = (requests) => requests.filter((url) => !url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:'));

async function dropNearmiss(page, name) {
  await dropFolder(page, '#check-drop', name, readFolder(join(shared, 'corpus/nearmiss', name)));
  await page.waitForFunction((root) => document.querySelector('#check-result .hops')?.textContent.includes(root), name);
}

test('a finding links to its rule doc, shown offline with the explain text', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await dropNearmiss(page, 'atlassian__atlassian-mcp-server__root');
  const code = await page.locator('#check-result a.code').first().textContent();
  await page.locator('#check-result a.code').first().click();
  await page.waitForFunction((c) => document.querySelector('#rule-doc h2')?.textContent.includes(c), code);
  assert.match(await page.locator('#rule-doc').textContent(), /What it checks[\s\S]*Why it matters/);
  assert.ok((await page.locator('#rules-list li a').count()) > 20, 'the whole registry is listed');
  await page.fill('#rules-filter', code);
  assert.ok((await page.locator('#rules-list li a').count()) >= 1);
  await screenshot(page, 'rules');
  assert.deepEqual(problems, []);
  assert.deepEqual(ownOrigin(requests), []);
  await context.close();
});

test('JSON, SARIF and Markdown downloads come from the core renderers', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await dropNearmiss(page, 'atlassian__atlassian-mcp-server__root');
  const saved = {};
  for (const label of ['JSON', 'SARIF', 'Markdown']) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label, exact: true }).click()]);
    saved[label] = await readFile(await download.path(), 'utf8');
  }
  const report = JSON.parse(saved.JSON);
  assert.equal(report.root, 'atlassian__atlassian-mcp-server__root');
  const sarif = JSON.parse(saved.SARIF);
  assert.equal(sarif.version, '2.1.0');
  assert.equal(sarif.runs[0].results.length, report.diagnostics.length);
  assert.match(saved.Markdown, /atlassian__atlassian-mcp-server__root/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('keyboard: Alt+digit switches views, ? lists shortcuts, Esc closes', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/`);
  await waitReady(page);
  await page.keyboard.press('Alt+6');
  await page.waitForSelector('#view-rules:not([hidden])');
  await page.keyboard.press('Alt+1');
  await page.waitForSelector('#view-check:not([hidden])');
  await page.locator('body').click({ position: { x: 5, y: 880 } });
  await page.keyboard.press('Shift+?');
  assert.ok(await page.locator('#shortcuts[open]').count());
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#shortcuts[open]').count(), 0);
  // Every tab is reachable by Tab and shows a focus ring.
  await page.locator('.tabs a').first().focus();
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none');
  assert.deepEqual(problems, []);
  await context.close();
});

test('dark theme on a narrow window stays usable', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`, { colorScheme: 'dark', viewport: { width: 560, height: 1000 } });
  await waitReady(page);
  await dropNearmiss(page, 'DietrichGebert__ponytail__root');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(background, 'rgb(22, 24, 27)');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
  await screenshot(page, 'check-dark-narrow');
  await page.locator('#check-result').scrollIntoViewIfNeeded();
  await screenshot(page, 'check-dark-narrow-result');
  assert.deepEqual(problems, []);
  await context.close();
});
