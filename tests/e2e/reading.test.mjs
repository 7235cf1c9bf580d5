// What a person reads: rule docs with their code marked as code, and table cells
// that keep short words whole on a wide screen.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { dropAndSeeVerdict, dropFolder, openPage, readFolder, servePageForEachFile, shared, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

test('a rule doc shows its Markdown backticks as code', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#rules/AP206`);
  await waitReady(page);
  await page.locator('#rule-doc h2').waitFor();
  const doc = page.locator('#rule-doc');
  assert.ok(!(await doc.locator('p').allTextContents()).some((text) => text.includes('`')), 'no raw backtick in the prose');
  assert.ok((await doc.locator('p code').allTextContents()).includes('extensions'));
  // The list's summaries too (AP020's names `.mcp.json`).
  assert.ok(!(await page.locator('#rules-list').textContent()).includes('`'), 'no raw backtick in the list');
  assert.deepEqual(problems, []);
  await context.close();
});

test('at 1400 px a server type stays one word in the components table', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`, { viewport: { width: 1400, height: 900 } });
  await waitReady(page);
  // A long server id beside a short type: the table must shrink the id, not break the type.
  const files = readFolder(join(shared, 'corpus/real/githits-com__githits-cli__root'));
  const mcp = { $schema: 'https://agent-plugins.org/schemas/1.0.0/mcp.schema.json', mcpServers: { ['long-server-name-'.repeat(12)]: { type: 'streamable-http', url: 'https://example.com/mcp' } } };
  files.find((file) => file.path === 'mcp.json').base64 = Buffer.from(JSON.stringify(mcp)).toString('base64');
  await dropFolder(page, '#check-drop', 'wide', files);
  const cell = page.locator('#check-result table.components td', { hasText: 'streamable-http' }).first();
  await cell.waitFor();
  const lines = await cell.evaluate((td) => {
    const range = document.createRange();
    range.selectNodeContents(td);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
  assert.equal(lines, 1, '"streamable-http" is not broken across lines');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a fix hint that names CLI flags says plainly they are CLI options', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const manifest = { $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json', name: 'demo', hooks: {} };
  await dropFolder(page, '#check-drop', 'demo', [{ path: 'plugin.json', base64: Buffer.from(JSON.stringify(manifest)).toString('base64') }]);
  const hint = page.locator('#check-result p.hint', { hasText: '--extensions-namespace' }).first();
  await hint.waitFor();
  assert.match(await hint.textContent(), /apcheck CLI options; this page has no such setting/);
  assert.ok(!(await hint.textContent()).includes('`'), 'backticks render as code');
  assert.deepEqual(problems, []);
  await context.close();
});

test('at 400 px a dropped package scrolls its verdict into view', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`, { viewport: { width: 400, height: 800 } });
  await waitReady(page);
  assert.ok(await dropAndSeeVerdict(page, 'githits-com__githits-cli__root'), 'the verdict is announced');
  assert.deepEqual(problems, []);
  await context.close();
});
