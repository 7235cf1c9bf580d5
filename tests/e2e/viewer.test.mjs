// The whole package and the JSON viewer: a dropped folder, a
// picked zip and a collection each get a file tree whose every file opens
// read-only with its findings marked, by mouse and by keyboard; Format's
// Result and the package's files get a JSON tree view whose nodes give their
// JSON Pointer and jq path, whose URLs are never links, and which reads a
// 5 MB document without holding up the page.

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { dropFolder, openPage, readFolder, screenshot, servePageForEachFile, shared, temporaryDir, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const SCHEMA = 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json';
// "Bad Name" is an error with a span in plugin.json (§3.2: names are lower-case kebab).
const PACKAGE = {
  'plugin.json': `{\n  "$schema": "${SCHEMA}",\n  "name": "Bad Name",\n  "version": "1.0.0",\n  "homepage": "https://example.com/plugin"\n}\n`,
  'skills/hello/SKILL.md': '---\nname: hello\ndescription: Says hello when the user greets the agent.\n---\n\nSay hello.\n',
  'assets/notes.txt': 'not part of the spec\n',
};

function packageFolder() {
  const dir = temporaryDir('apcheck-viewer-');
  for (const [path, text] of Object.entries(PACKAGE)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const treeItem = (page, name) => page.locator('#check-files [role=treeitem]', { has: page.locator(':scope > .row > .name', { hasText: new RegExp(`^${name}$`) }) });
const editorText = (page) => page.locator('#check-editor .cm-content').innerText();

test('a dropped folder gets a file tree: every file opens read-only with its findings marked, by keyboard too', async () => {
  const { context, page, problems, requests } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await dropFolder(page, '#check-drop', 'greeter', readFolder(packageFolder()));
  await page.waitForSelector('#check-files:not([hidden]) [role=tree]');
  assert.equal(await page.locator('#check-files [role=tree]').getAttribute('aria-label'), 'Files of greeter');
  // Folders first, then files; the manifest counts its finding.
  const names = await page.locator('#check-files .name').allInnerTexts();
  assert.deepEqual(names, ['assets/', 'notes.txt', 'skills/', 'hello/', 'SKILL.md', 'plugin.json']);
  assert.ok(Number(await treeItem(page, 'plugin.json').locator('.count.error').innerText()) >= 1);
  // The manifest is opened after the check, its finding underlined, and it is the selected file.
  await page.waitForSelector('#check-editor .cm-lintRange-error');
  assert.equal(await treeItem(page, 'plugin.json').getAttribute('aria-selected'), 'true');

  // Keyboard: one tab stop, arrows move, Left folds, Enter opens.
  const current = page.locator('#check-files [role=treeitem][tabindex="0"]');
  await current.focus();
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.path), 'assets');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await treeItem(page, 'assets/').getAttribute('aria-expanded'), 'false');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.path), 'skills');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.path), 'skills/hello/SKILL.md');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#check-editor .cm-content').innerText.includes('name: hello'));
  assert.match(await page.locator('#check-filetabs [aria-selected=true]').innerText(), /skills\/hello\/SKILL\.md \(dropped\)/);
  // Read-only: typing changes nothing.
  await page.locator('#check-editor .cm-content').click();
  await page.keyboard.type('XYZ');
  assert.ok(!(await editorText(page)).includes('XYZ'));

  // A click opens a folder, and a file.
  await treeItem(page, 'assets/').locator(':scope > .row > .name').click();
  assert.equal(await treeItem(page, 'assets/').getAttribute('aria-expanded'), 'true');
  await treeItem(page, 'notes.txt').locator(':scope > .row > .name').click();
  await page.waitForFunction(() => document.querySelector('#check-editor .cm-content').innerText.includes('not part of the spec'));
  assert.equal(await treeItem(page, 'notes.txt').getAttribute('aria-selected'), 'true');
  await screenshot(page, 'viewer-file-tree');
  assert.deepEqual(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:')), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the files of a picked .zip open from the tree, and a finding opens its file', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const zip = zipSync(Object.fromEntries(Object.entries(PACKAGE).map(([path, text]) => [`greeter/${path}`, strToU8(text)])));
  await page.setInputFiles('#check-pick-zip', { name: 'greeter.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
  await page.waitForSelector('#check-files:not([hidden]) [role=tree]');
  // The zip's manifest is opened and marked, as a folder's is.
  await page.waitForSelector('#check-editor .cm-lintRange-error');
  await treeItem(page, 'SKILL.md').locator('.name').click();
  await page.waitForFunction(() => document.querySelector('#check-editor .cm-content').innerText.includes('Says hello'));
  await page.locator('#check-result button.where', { hasText: /^plugin\.json/ }).first().click();
  await page.waitForFunction(() => document.querySelector('#check-editor .cm-content').innerText.includes('Bad Name'));
  assert.equal(await treeItem(page, 'plugin.json').getAttribute('aria-selected'), 'true');
  assert.deepEqual(problems, []);
  await context.close();
});

test("a collection's tree shows every plugin root", async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await dropFolder(page, '#check-drop', 'nearmiss', readFolder(join(shared, 'corpus/nearmiss')));
  await page.waitForSelector('#check-files:not([hidden]) [role=tree]');
  const roots = await page.locator('#check-files [role=treeitem]:has(> .row > .tag)').evaluateAll((items) => items.map((item) => item.dataset.path));
  const reported = await page.locator('#check-result table.summary tbody tr td:first-child').allInnerTexts();
  assert.ok(roots.length > 1, roots.join(', '));
  assert.deepEqual([...roots].sort(), [...reported].sort());
  assert.deepEqual(problems, []);
  await context.close();
});

const FORMAT_INPUT = '{"name":"x","homepage":"https://example.com/a?b=1","a/b~c":[1,{"deep":true}],"2":2,"big":12345678901234567890,"odd key":null}';

/** Opens `text` in Format and waits for its Result (`marker` is in its first lines). */
async function formatDocument(page, text, marker) {
  await page.setInputFiles('#format-open', { name: 'doc.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForFunction(
    (marker) => {
      const pane = document.querySelector('#format-output');
      return !pane.dataset.empty && !pane.dataset.stale && pane.querySelector('.cm-content').textContent.includes(marker);
    },
    marker,
    { timeout: 60_000 },
  );
}

test('Format: the tree view keeps the order and text written, gives pointers and jq paths, and shows URLs as text', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#format`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await waitReady(page);
  await formatDocument(page, FORMAT_INPUT, '12345678901234567890');
  const toggle = page.locator('#format-root button.tree-toggle');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  const tree = page.locator('#format-output .json-tree');
  await tree.locator('[role=treeitem][aria-level="2"]').first().waitFor();
  // Members in the order written (JSON.parse would put "2" first), numbers as written.
  assert.deepEqual(await tree.locator('[aria-level="2"] > .row > .jt-key').allInnerTexts(), ['"name"', '"homepage"', '"a/b~c"', '"2"', '"big"', '"odd key"']);
  assert.ok((await tree.innerText()).includes('12345678901234567890'));
  // A URL is text with a copy button, never a link.
  assert.equal(await tree.locator('a').count(), 0);
  assert.equal(await tree.locator('[role=treeitem]', { hasText: 'example.com' }).getByRole('button', { name: 'Copy URL' }).count(), 1);

  // Open "a/b~c" by keyboard and pick its second item.
  await tree.locator('[role=treeitem][tabindex="0"]').focus();
  for (let step = 0; step < 3; step++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await tree.locator('[aria-level="3"]').first().waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  assert.equal(await tree.locator('.jt-pointer').innerText(), '/a~1b~0c/1');
  assert.equal(await tree.locator('.jt-jq').innerText(), '.["a/b~c"][1]');
  await tree.getByRole('button', { name: 'Copy jq path' }).click();
  await page.waitForFunction(() => document.querySelector('#toast').textContent.includes('jq path copied'));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), '.["a/b~c"][1]');
  // Picking selects the node's text in the Result.
  await tree.locator('.jt-key', { hasText: '"odd key"' }).click();
  assert.equal(await tree.locator('.jt-jq').innerText(), '.["odd key"]');
  assert.ok((await page.locator('#format-output .cm-selectionBackground').count()) > 0);
  await screenshot(page, 'viewer-json-tree');

  // A parse error leaves no result, and no tree.
  await page.setInputFiles('#format-open', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"a":') });
  await page.waitForFunction(() => document.querySelector('#format-output').dataset.empty === 'true');
  await page.waitForFunction(() => document.querySelector('#format-output .json-tree [role=tree]') === null);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Format: the tree of a 5 MB document is read in the worker and drawn 200 nodes at a time', { timeout: 180_000 }, async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#format`);
  await waitReady(page);
  const tools = Array.from({ length: 25_000 }, (_, index) => ({ name: `tool_${index}`, description: `Tool number ${index}, ${'x'.repeat(80)}`, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }));
  const text = JSON.stringify({ tools });
  assert.ok(text.length > 5e6, `${text.length} bytes`);
  await formatDocument(page, text, 'tool_0');
  await page.evaluate(() => {
    window.longestGap = 0;
    let last = performance.now();
    window.gapTimer = setInterval(() => {
      const now = performance.now();
      window.longestGap = Math.max(window.longestGap, now - last);
      last = now;
    }, 20);
  });
  await page.locator('#format-root button.tree-toggle').click();
  const tree = page.locator('#format-output .json-tree');
  await tree.locator('[aria-level="2"]').first().waitFor({ timeout: 60_000 });
  await tree.locator('[aria-level="2"] > .row > .jt-key').first().click();
  await tree.locator('.jt-more').waitFor({ timeout: 60_000 });
  const longestGap = await page.evaluate(() => (clearInterval(window.gapTimer), window.longestGap));
  console.log(`5 MB tree: longest main-thread gap ${Math.round(longestGap)} ms`);
  assert.ok(longestGap < 250, `the page froze for ${Math.round(longestGap)} ms`);
  assert.equal(await tree.locator('[aria-level="3"]').count(), 201, '200 tools and the "show more" item');
  await tree.locator('.jt-more').click();
  await page.waitForFunction(() => document.querySelectorAll('#format-output .json-tree [aria-level="3"]').length === 401);
  assert.deepEqual(problems, []);
  await context.close();
});
