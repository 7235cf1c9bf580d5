// Rule docs offline, downloads rendered by the core, keyboard use, and the
// page in dark mode on a narrow window — with no request leaving the page.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  dropFolder,
  offOrigin,
  openPage,
  readFolder,
  screenshot,
  servePageForEachFile,
  shared,
  waitReady,
} from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const ownOrigin = (requests) => offOrigin(requests, origin);

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
  // The examples the page's wasm leaves out are put back by the worker: real files, no placeholder.
  assert.ok((await page.locator('#rule-doc .example figcaption').count()) >= 2, 'example files');
  assert.doesNotMatch(await page.locator('#rule-doc').textContent(), /rule-examples\.json/);
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
  // The CLI's one JSON shape: a versioned object with the package reports.
  const downloaded = JSON.parse(saved.JSON);
  assert.equal(downloaded.version, 1);
  assert.equal(downloaded.packages.length, 1);
  const [report] = downloaded.packages;
  assert.equal(report.root, 'atlassian__atlassian-mcp-server__root');
  const sarif = JSON.parse(saved.SARIF);
  assert.equal(sarif.version, '2.1.0');
  assert.equal(sarif.runs[0].results.length, report.diagnostics.length);
  assert.match(saved.Markdown, /atlassian__atlassian-mcp-server__root/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('keyboard: Alt+digit switches views, ? lists shortcuts, Esc closes, Ctrl+F searches', async () => {
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
  // Editors search with Ctrl+F and fold from the gutter.
  await page.locator('#check-editor .cm-content').click();
  await page.keyboard.press('Control+f');
  await page.waitForSelector('#check-editor .cm-search');
  assert.ok(await page.locator('#check-editor .cm-foldGutter').count());
  await page.keyboard.press('Escape');
  // The pasted-file tabs follow the arrow keys and keep the focus.
  await page.getByRole('tab', { name: 'plugin.json' }).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'mcp.json');
  assert.equal(await page.getByRole('tab', { name: 'mcp.json' }).getAttribute('aria-selected'), 'true');
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
  await page.setViewportSize({ width: 1360, height: 900 });
  await page.goto(`${origin}/#diff`);
  await page.waitForSelector('#diff-root .paths li');
  await screenshot(page, 'diff-dark');
  assert.deepEqual(problems, []);
  await context.close();
});

async function typeInto(page, selector, text) {
  await page.locator(selector).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

test('Format: pretty, minify and sort keys; a parse error is shown at line:column', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#format`);
  await waitReady(page);
  await page.waitForSelector('#format-root .status.ok');
  await typeInto(page, '#format-root .editor >> nth=0 >> .cm-content', '{"b":1,"a":[1,2]}');
  await page.getByLabel('Sort keys').check();
  await page.waitForFunction(() => document.querySelectorAll('#format-root .cm-content')[1]?.textContent.startsWith('{  "a"'));
  await page.getByLabel('Minify').check();
  await page.waitForFunction(() => document.querySelectorAll('#format-root .cm-content')[1]?.textContent === '{"a":[1,2],"b":1}');
  await page.getByLabel('Minify').uncheck();
  await typeInto(page, '#format-root .editor >> nth=0 >> .cm-content', '{\n  "a": 1,\n  "b": tru\n}');
  await page.waitForSelector('#format-root .status.bad');
  assert.match(await page.locator('#format-root .status.bad').textContent(), /Parse error at 3:\d+/);
  await page.locator('#format-root .status.bad').click();
  await screenshot(page, 'format');
  // A trailing comma: placed at the comma, and the way to accept it is this page's checkbox.
  await typeInto(page, '#format-root .editor >> nth=0 >> .cm-content', '{\n  "a": 1,\n}');
  await page.waitForFunction(() => /Parse error at 2:9/.test(document.querySelector('#format-root .status.bad')?.textContent ?? ''));
  const trailing = await page.locator('#format-root .status.bad').textContent();
  assert.match(trailing, /“Allow comments \(JSONC\)” accepts it/);
  assert.doesNotMatch(trailing, /--jsonc/);
  assert.deepEqual(problems, []);
  assert.deepEqual(ownOrigin(requests), []);
  await context.close();
});

test('Schema: a built-in schema lists each failure at its pointer; your own schema works too', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#schema`);
  await waitReady(page);
  await page.waitForSelector('#schema-root .schema-results .status');
  const options = await page.locator('#schema-root select option').allTextContents();
  assert.ok(options.includes('plugin') && options.includes('mcp'), `built-ins: ${options}`);
  await page.waitForSelector('#schema-root .schema-results .status.bad');
  assert.ok((await page.locator('#schema-root .schema-results li.diag').count()) >= 1);
  await screenshot(page, 'schema-builtin');
  await page.locator('#schema-root select').selectOption('');
  await page.waitForFunction(() => /your schema/.test(document.querySelector('#schema-root .schema-results .status')?.textContent ?? ''));
  await screenshot(page, 'schema-own');
  assert.deepEqual(problems, []);
  assert.deepEqual(ownOrigin(requests), []);
  await context.close();
});

test('Schema: Open many… validates a set of files across workers, in order, and opens a failing one', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#schema`);
  await waitReady(page);
  await page.waitForSelector('#schema-root .schema-results .status');
  // 2,400 manifests (about 700 KB), big enough to be shared across workers;
  // the failing ones sit in every slice, so a wrong offset names the wrong files.
  const failingAt = new Set([3, 1199, 1200, 2399]);
  const files = Array.from({ length: 2400 }, (_, index) => {
    const name = failingAt.has(index) ? `Bad Name ${index}` : `plugin-${index}`;
    const manifest = { $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json', name, version: '1.0.0', description: 'x'.repeat(200) };
    return { name: `m${String(index).padStart(4, '0')}.json`, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(manifest, null, 2)) };
  });
  files[2000].buffer = Buffer.from('{"name": ');
  const expected = ['m0003.json', 'm1199.json', 'm1200.json', 'm2000.json', 'm2399.json'];
  const workersAvailable = await page.evaluate(() => Math.min(navigator.hardwareConcurrency || 1, 4));
  // The first big batch starts the extra workers and runs on the page's own;
  // a later one is shared once they have loaded the core.
  let workers = 0;
  for (let attempt = 0; attempt < 20 && workers < workersAvailable; attempt++) {
    await page.setInputFiles('#schema-open-many', files);
    await page.waitForFunction(() => /5 of 2400 documents fail/.test(document.querySelector('#schema-root .schema-results .status')?.textContent ?? ''));
    const named = await page.locator('#schema-root .batch-failures > li .diag-head button').allTextContents();
    assert.deepEqual(named, expected, `attempt ${attempt}`);
    workers = Number(await page.locator('#schema-root .batch-took').getAttribute('data-workers'));
    if (workers < workersAvailable) await page.waitForTimeout(250);
  }
  assert.equal(workers, workersAvailable, 'the batch was shared by one worker per core');
  assert.match(await page.locator('#schema-root .batch-failures').textContent(), /not JSON[\s\S]*\/name pattern/);
  await screenshot(page, 'schema-many');
  // A failing file opens in the editor, where the single-document view takes over.
  await page.locator('#schema-root .batch-failures > li .diag-head button', { hasText: 'm1199.json' }).click();
  await page.waitForFunction(() => /1 failure against plugin/.test(document.querySelector('#schema-root .schema-results .status')?.textContent ?? ''));
  assert.match(await page.locator('#schema-root .cm-content').first().textContent(), /Bad Name 1199/);
  // Three valid files: one worker, nothing listed.
  await page.setInputFiles('#schema-open-many', files.slice(4, 7));
  await page.waitForFunction(() => /All 3 documents are valid against plugin/.test(document.querySelector('#schema-root .schema-results .status')?.textContent ?? ''));
  assert.equal(await page.locator('#schema-root .batch-took').getAttribute('data-workers'), '1');
  assert.deepEqual(problems, []);
  assert.deepEqual(ownOrigin(requests), []);
  await context.close();
});

test('Schema: a document that cannot be checked is shown as such, neither valid nor failing', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#schema`);
  await waitReady(page);
  await page.waitForSelector('#schema-root .schema-results .status');
  await page.locator('#schema-root select').selectOption('');
  const typeInto = async (label, text) => {
    await page.locator(`.view:not([hidden]) [aria-label="${label}"]`).click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(text);
  };
  const statusIs = (pattern) =>
    page.waitForFunction((source) => new RegExp(source).test(document.querySelector('#schema-root .schema-results .status')?.textContent ?? ''), pattern.source, { timeout: 30_000 });
  const results = () => page.locator('#schema-root .schema-results').textContent();
  // Each case below leaves the status as it was, so wait for the reason itself.
  const uncheckedFor = (pattern) =>
    page.waitForFunction((source) => new RegExp(source).test(document.querySelector('#schema-root .schema-results .unchecked')?.textContent ?? ''), pattern.source, { timeout: 30_000 });
  // A pattern past the regex engine's backtracking limit: no verdict, never a violation.
  await typeInto('JSON Schema', '{"pattern": "(a*)*\\\\1x"}');
  await typeInto('JSON document to validate', `"${'a'.repeat(40)}"`);
  await statusIs(/Could not check against your schema/);
  assert.match(await results(), /backtracking limit/);
  // A subject the engine finishes with gets its verdict.
  await typeInto('JSON document to validate', '"ab"');
  await statusIs(/1 failure against your schema/);
  // Branches that refer back to the schema double the validator's work with each
  // level: 22 levels would hold the tab for most of a minute and gigabytes of memory.
  // The page answers at once, with no verdict.
  await typeInto('JSON Schema', '{"type": "array", "items": {"oneOf": [{"$ref": "#"}, {"$ref": "#"}, {"type": "string"}]}}');
  await typeInto('JSON document to validate', `${'['.repeat(22)}${']'.repeat(22)}`);
  await uncheckedFor(/too expensive for this input/);
  await statusIs(/Could not check against your schema/);
  // A number a 64-bit float cannot hold: f64 would call these two equal.
  await typeInto('JSON Schema', '{"const": 18446744073709551617}');
  await typeInto('JSON document to validate', '18446744073709551616');
  await uncheckedFor(/cannot hold exactly/);
  await statusIs(/Could not check against your schema/);
  assert.deepEqual(problems, []);
  assert.deepEqual(ownOrigin(requests), []);
  await context.close();
});

test('Diff: side by side and inline, paths with moves, JSON Patch and merge patch', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#diff`);
  await waitReady(page);
  await page.waitForSelector('#diff-root .paths li');
  assert.ok(await page.locator('#diff-root .cm-mergeView').count(), 'side by side');
  assert.ok((await page.locator('#diff-root .cm-changedText').count()) > 0, 'word-level highlights');
  const paths = await page.locator('#diff-root .paths').textContent();
  assert.match(paths, /license/);
  const patch = JSON.parse(await page.locator('#diff-root .output pre').first().textContent());
  assert.ok(Array.isArray(patch) && patch.length > 0);
  await screenshot(page, 'diff-side');
  await page.locator('#diff-root select').selectOption('inline');
  await page.waitForSelector('#diff-root .cm-deletedChunk, #diff-root .cm-changedLine');
  await screenshot(page, 'diff-inline');
  assert.deepEqual(problems, []);
  assert.deepEqual(ownOrigin(requests), []);
  await context.close();
});

test('a long job shows progress, Esc cancels it, and the next job runs', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#diff`);
  await waitReady(page);
  await page.waitForSelector('#diff-root .paths li');
  const n = 40000;
  const a = JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ v: i, s: `x${i}` })) });
  const b = JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ v: (i * 7919) % n, s: `y${i}` })) });
  await page.setInputFiles('#diff-load-a', { name: 'a.json', mimeType: 'application/json', buffer: Buffer.from(a) });
  await page.setInputFiles('#diff-load-b', { name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(b) });
  await page.waitForSelector('#progress:not([hidden])', { timeout: 20_000 });
  await screenshot(page, 'progress');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#progress', { state: 'hidden' });
  assert.match(await page.locator('#toast').textContent(), /Cancelled/);
  // A new worker answers the next request.
  await page.setInputFiles('#diff-load-a', { name: 'a.json', mimeType: 'application/json', buffer: Buffer.from('{"a": 1}') });
  await page.setInputFiles('#diff-load-b', { name: 'b.json', mimeType: 'application/json', buffer: Buffer.from('{"a": 2}') });
  await page.locator('#diff-root .paths li', { hasText: '/a' }).waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});
