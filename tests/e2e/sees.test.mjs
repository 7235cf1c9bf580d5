// What a person sees: the file tree keeps its rows at laptop sizes, a verdict
// at 200% zoom is brought into view, root-level findings mark a key or a brace
// rather than the whole document, a batch names each file by its path, a
// pasted SKILL.md's directory is the user's to name, Format warns about
// members given twice, and the tool-call form keeps an enum's select for a
// value outside it.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { dropAndSeeVerdict, openPage, screenshot, selectCheckText, servePageForEachFile, temporaryDir, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const MANIFEST = { $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json', name: 'many-skills', version: '1.0.0', description: 'A package with many skills.' };

/** A package of 24 skills: a file tree of 50 rows. */
function manySkills() {
  const dir = temporaryDir('apcheck-sees-');
  writeFileSync(join(dir, 'plugin.json'), JSON.stringify(MANIFEST, null, 2));
  for (let index = 1; index <= 24; index++) {
    const name = `skill-${String(index).padStart(2, '0')}`;
    mkdirSync(join(dir, 'skills', name), { recursive: true });
    writeFileSync(join(dir, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: Skill ${index}, for the tree.\n---\nBody.\n`);
  }
  return dir;
}

/** The texts the editor in `host` marks (CodeMirror's lint ranges), in document order. */
const markedTexts = (page, host) => page.locator(`${host} .cm-lintRange`).allTextContents();

for (const [width, height] of [[1400, 900], [1366, 768], [1440, 900], [1280, 800]]) {
  test(`at ${width}×${height} a picked folder's file tree shows at least 10 rows`, async () => {
    const { context, page, problems } = await openPage(browser, `${origin}/#check`, { viewport: { width, height } });
    await waitReady(page);
    await page.setInputFiles('#check-pick-folder', manySkills());
    // The check opens the manifest read-only once it is done: the layout is final.
    await page.waitForFunction(() => document.querySelector('#check-filetabs [aria-selected=true]')?.textContent.includes('(dropped)'));
    const rows = await page.evaluate(() => {
      const pane = document.getElementById('check-files').getBoundingClientRect();
      const bottom = Math.min(pane.bottom, innerHeight);
      return [...document.querySelectorAll('#check-files [role=treeitem] > .row')].filter((row) => {
        const box = row.getBoundingClientRect();
        return box.height > 0 && box.top >= pane.top && box.bottom <= bottom + 0.5;
      }).length;
    });
    await screenshot(page, `filetree-${width}x${height}`);
    assert.ok(rows >= 10, `${rows} rows of the file tree are visible`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('at 200% zoom a dropped package brings its verdict into view, in a live region', async () => {
  // A 1400×900 window at 200%: 700×450 CSS pixels, two device pixels each.
  const context = await browser.newContext({ viewport: { width: 700, height: 450 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${origin}/#check`);
  await waitReady(page);
  assert.ok(await dropAndSeeVerdict(page, 'githits-com__githits-cli__root'), 'the verdict is announced');
  await screenshot(page, 'zoom200-verdict');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a missing member marks the opening brace, an unexpected one its key, in Check and Schema', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await selectCheckText(page);
  await page.keyboard.insertText('{\n  "version": "1.0.0",\n  "description": "No name, no $schema."\n}\n');
  await page.locator('#check-result .diag', { hasText: 'AP211' }).waitFor();
  await page.locator('#check-editor .cm-lintRange').first().waitFor();
  // AP203 ($schema) and AP211 (name) both at the brace, nothing over the whole document.
  const marked = await markedTexts(page, '#check-editor');
  assert.ok(marked.length >= 1 && marked.every((text) => text === '{'), JSON.stringify(marked));

  await page.evaluate(() => (location.hash = 'schema'));
  await page.waitForSelector('#view-schema:not([hidden]) .schema-results .status');
  await page.locator('#schema-root select').selectOption('');
  const typeInto = async (label, text) => {
    await page.locator(`.view:not([hidden]) [aria-label="${label}"]`).click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(text);
  };
  await typeInto('JSON Schema', '{"properties": {"name": {}}, "additionalProperties": false, "required": ["name"]}');
  await typeInto('JSON document to validate', '{\n  "title": "x",\n  "extra": 1\n}');
  await page.waitForFunction(() => /2 failures against your schema/.test(document.querySelector('#schema-root .schema-results .status')?.textContent ?? ''), null, { timeout: 30_000 });
  await page.locator('#view-schema [aria-label="JSON document to validate"] .cm-lintRange').first().waitFor();
  const schemaMarks = await page.locator('#view-schema .tool-grid > .pane:first-child .cm-lintRange').allTextContents();
  assert.deepEqual(schemaMarks.sort(), ['"title"', '{'].sort(), 'the first unexpected key, and the brace of the object that lacks "name"');
  assert.deepEqual(problems, []);
  await context.close();
});

test('Open folder… names each failing file by its path in the folder; opening one drops the old marks', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#schema`);
  await waitReady(page);
  await page.waitForSelector('#schema-root .schema-results .status');
  const dir = temporaryDir('apcheck-batch-');
  for (const [folder, name] of [['alpha', 'alpha'], ['beta', 'Bad Beta'], ['gamma', 'Bad Gamma']]) {
    mkdirSync(join(dir, folder));
    writeFileSync(join(dir, folder, 'plugin.json'), JSON.stringify({ ...MANIFEST, name }, null, 2));
    writeFileSync(join(dir, folder, 'README.md'), 'not JSON, not validated\n');
  }
  // A document on screen with its failures marked, then the folder.
  const editor = page.locator('#view-schema [aria-label="JSON document to validate"]');
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText('{"name": 1, "$schema": 2, "version": 3, "description": 4, "extra1": 5}');
  await page.waitForFunction(() => /failures? against plugin/.test(document.querySelector('#schema-root .schema-results .status')?.textContent ?? ''), null, { timeout: 30_000 });
  await page.locator('#view-schema .tool-grid > .pane:first-child .cm-lintRange').first().waitFor();
  await page.setInputFiles('#schema-open-folder', dir);
  await page.waitForFunction(() => /2 of 3 documents fail/.test(document.querySelector('#schema-root .schema-results .status')?.textContent ?? ''), null, { timeout: 30_000 });
  const named = await page.locator('#schema-root .batch-failures > li .diag-head button').allTextContents();
  assert.deepEqual(named, ['beta/plugin.json', 'gamma/plugin.json']);
  // The editor shows the opened file only: no mark of the document shown before survives it.
  await page.locator('#schema-root .batch-failures > li .diag-head button', { hasText: 'gamma/plugin.json' }).click();
  assert.equal(await page.locator('#view-schema .tool-grid > .pane:first-child .cm-lintRange').count(), 0, 'marks of the previous document are gone at once');
  await page.waitForFunction(() => /1 failure against plugin/.test(document.querySelector('#schema-root .schema-results .status')?.textContent ?? ''), null, { timeout: 30_000 });
  assert.match((await markedTexts(page, '#view-schema .tool-grid > .pane:first-child')).join(' '), /Bad Gamma/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a pasted SKILL.md sits in the directory the user names, so the name rule can fire (at 400 px, axe clean)', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`, { viewport: { width: 400, height: 900 } });
  await waitReady(page);
  await page.waitForSelector('#check-result .verdict');
  const dirInput = page.locator('#check-skill-dir-name');
  assert.equal(await dirInput.isVisible(), false, 'only beside the SKILL.md tab');
  await page.locator('#check-filetabs button', { hasText: 'SKILL.md' }).click();
  await page.locator('#check-editor .cm-content').click();
  await page.keyboard.insertText('---\nname: pdf-tools\ndescription: Reads PDF files. Use it for PDFs.\n---\nBody.\n');
  // By default the directory is the skill's own name.
  await page.waitForFunction(() => document.getElementById('check-skill-dir-name').value === 'pdf-tools', null, { timeout: 30_000 });
  assert.equal(await page.locator('#check-result .diag', { hasText: 'differs from its directory' }).count(), 0);
  await dirInput.fill('pdf');
  const mismatch = page.locator('#check-result .diag', { hasText: 'skill name "pdf-tools" differs from its directory `skills/pdf`' });
  await mismatch.first().waitFor({ timeout: 30_000 });
  assert.equal(await dirInput.getAttribute('aria-invalid'), 'false');
  await dirInput.fill('a/b');
  await page.waitForFunction(() => document.getElementById('check-skill-dir-name').getAttribute('aria-invalid') === 'true', null, { timeout: 30_000 });
  await page.evaluate(axeSource);
  const { violations } = await page.evaluate(() => globalThis.axe.run(document.getElementById('view-check'), { resultTypes: ['violations'] }));
  assert.deepEqual(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Format warns about a member given twice, marked at its later key', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#format`);
  await waitReady(page);
  await page.waitForSelector('#format-status .status.ok');
  await page.locator('[aria-label="JSON to format"]').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText('{"a": 1, "b": {"c": 2, "c": 3}, "a": 4}');
  const warning = page.locator('#format-status button.status.warn');
  await warning.waitFor({ timeout: 30_000 });
  assert.match(await warning.textContent(), /Formatted\. 2 members are given twice, each marked; \/b\/c is given twice in one object/);
  assert.deepEqual(await markedTexts(page, '#format-root .tool-grid > .pane:first-child'), ['"c"', '"a"']);
  // Without a repeat, the plain verdict again.
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText('{"a": 1}');
  await page.locator('#format-status .status.ok').waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('#format-root .cm-lintRange').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});
