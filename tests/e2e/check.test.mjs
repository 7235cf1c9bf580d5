// The Check view in a real browser: cold load time, pasted files, a real
// corpus package dropped as a folder, the big telnyx root without freezing the
// page — and, over all of it, no request anywhere but the page's own assets.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import {
  builtFile,
  dropFolder,
  foreignRequests,
  openPage,
  readFolder,
  screenshot,
  selectCheckText,
  servePageForEachFile,
  repoRoot,
  shared,
  waitReady,
} from './harness.mjs';

// The service worker keeps the build for offline use: it fetches the same files, and the manifest and icon.
const OWN_ASSETS = ['/', '/index.html', ...['app.js', 'app.css', 'boot.js', 'worker.js'].map((name) => `/${builtFile(name)}`), '/sw.js', '/app.webmanifest', '/icon.svg'];

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

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
  const coreReady = Date.now() - started;
  console.log(`cold load: first interactive view ${interactive} ms, core and rule registry loaded ${coreReady} ms`);
  assert.ok(interactive < 1000, `first interactive view after ${interactive} ms`);
  const response = await page.request.get(`${origin}/${builtFile('worker.js')}`);
  assert.match(response.headers()['content-security-policy'], /connect-src 'none'/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('pasted plugin.json is checked as you type, and a finding jumps to its span', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await selectCheckText(page);
  await page.keyboard.insertText('{\n  "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",\n  "name": "Bad Name",\n  "version": "1"\n}\n');
  // "Bad Name" breaks the manifest name rule (§5.5): its finding points at line 3.
  const where = page.locator('#check-result button.where', { hasText: /^plugin\.json:3:/ }).first();
  await where.waitFor();
  await where.click();
  await page.waitForSelector('#check-editor .cm-editor.cm-focused');
  const selected = await page.evaluate(() => document.getSelection().toString());
  assert.match(selected, /Bad Name/, 'the jump selects the span of the finding');
  await screenshot(page, 'check-paste');
  assert.deepEqual(problems, []);
  assert.deepEqual(foreignRequests(requests, isOwnAsset), []);
  await context.close();
});

test('a finding about hidden or reordering characters shows them as escapes, as the CLI does', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await selectCheckText(page);
  // A right-to-left override in the name would reverse the rest of the message
  // on screen; tag characters in an unknown member would show as nothing.
  await page.keyboard.insertText('{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "ab\u202ecd", "x\u{e0041}": 1}');
  const message = page.locator('#check-result .message', { hasText: 'ab\\u{202e}cd' }).first();
  await message.waitFor();
  await page.locator('#check-result .message', { hasText: 'x\\u{e0041}' }).first().waitFor();
  const shown = await page.locator('#check-result').textContent();
  assert.doesNotMatch(shown, /[\u202e\u{e0041}]/u, 'no raw override or tag character on screen');
  assert.deepEqual(problems, []);
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

test('a rejected package still shows the skills and mcp.json findings, marked as not reached', async () => {
  // §5.2: no `$schema`, so a client loads nothing; one pass still shows what is
  // wrong further on (a skill whose name differs from its folder, §7.1), as the CLI does.
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const text = (s) => Buffer.from(s).toString('base64');
  await dropFolder(page, '#check-drop', 'rejected-demo', [
    { path: 'plugin.json', base64: text('{"name": "rejected-demo"}\n') },
    {
      path: 'skills/pdf/SKILL.md',
      base64: text('---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\n'),
    },
  ]);
  const note = page.locator('#check-result li.diag', { hasText: 'AP309' }).locator('.unreached');
  await note.waitFor();
  assert.match(await note.textContent(), /does not reach until the manifest loads/);
  assert.match(await page.locator('#check-result').textContent(), /Rejected/);
  // The manifest's own finding is not marked.
  assert.equal(await page.locator('#check-result li.diag', { hasText: 'AP203' }).locator('.unreached').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test("a SKILL.md's apcheck-ignore comment hides its finding in the page as in the CLI, and the counts say so", async () => {
  // A skill whose name differs from its folder (AP309, §7.1), suppressed by a
  // comment in the body; the package is otherwise clean.
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const text = (s) => Buffer.from(s).toString('base64');
  const manifest = '{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "quiet-demo", "version": "1.0.0"}\n';
  const skill = (comment) =>
    `---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\n${comment}\nRead the file.\n`;
  await dropFolder(page, '#check-drop', 'quiet-demo', [
    { path: 'plugin.json', base64: text(manifest) },
    { path: 'skills/pdf/SKILL.md', base64: text(skill('<!-- apcheck-ignore AP309 -->')) },
  ]);
  await page.waitForFunction(() => /hidden by apcheck-ignore comments/.test(document.querySelector('#check-result .verdict-counts')?.textContent ?? ''));
  assert.match(await page.locator('#check-result .verdict-counts').textContent(), /\(1 hidden by apcheck-ignore comments\)/);
  assert.equal(await page.locator('#check-result li.diag', { hasText: 'AP309' }).count(), 0);
  assert.deepEqual(problems, []);
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
  assert.match(await page.locator('#check-result .hop').first().textContent(), /files read/);
  await screenshot(page, 'check-telnyx');
  assert.deepEqual(problems, []);
  assert.deepEqual(foreignRequests(requests, isOwnAsset), []);
  await context.close();
});

test('a .zip of a plugin folder is opened in the worker and checked', async () => {
  const { context, page, requests, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const name = 'DietrichGebert__ponytail__root';
  const files = Object.fromEntries(readFolder(join(shared, 'corpus/nearmiss', name)).map((f) => [`${name}/${f.path}`, Buffer.from(f.base64, 'base64')]));
  const zip = Buffer.from(zipSync(files));
  await page.setInputFiles('#check-pick-zip', { name: `${name}.zip`, mimeType: 'application/zip', buffer: zip });
  await page.waitForFunction((root) => document.querySelector('#check-result .hops')?.textContent.includes(root), name);
  // The zip's single top folder is unwrapped: plugin.json is found at the root.
  assert.doesNotMatch(await page.locator('#check-result').textContent(), /AP201/);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreignRequests(requests, isOwnAsset), []);
  await context.close();
});

test('a pasted SKILL.md is checked under skills/<its name>/ beside the manifest', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await page.getByRole('tab', { name: 'SKILL.md' }).click();
  await page.locator('#check-editor .cm-content').click();
  await page.keyboard.insertText('---\nname: weekly-report\ndescription: Writes the weekly report from invoice data. Use when asked for a weekly summary.\n---\n\n# Weekly report\n');
  const skills = page.locator('#check-result .hop[data-hop="Skills"]');
  await skills.filter({ hasText: 'weekly-report' }).waitFor();
  assert.match(await skills.textContent(), /discovered/);
  await screenshot(page, 'check-skill');
  assert.deepEqual(problems, []);
  await context.close();
});

// nearmiss holds 6 packages; atlassian's has only vendor manifests (.claude-plugin/, .cursor-plugin/),
// which no Agent Plugins client reads, so the search finds 5 roots, as `apcheck check nearmiss` does.
test('a folder of several plugins (nearmiss) gets one report per plugin and a summary table', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await dropFolder(page, '#check-drop', 'nearmiss', readFolder(join(shared, 'corpus/nearmiss')));
  await page.waitForFunction(() => document.querySelector('#check-result .folder')?.dataset.root === 'nearmiss');
  assert.equal(await page.locator('#check-result table.summary tbody tr').count(), 5);
  assert.equal(await page.locator('#check-result details.plugin-report').count(), 5);
  assert.match(await page.locator('#check-result .verdict-title').first().textContent(), /collection of 5 plugins/);
  await screenshot(page, 'check-collection');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a pasted SKILL.md named "Weekly Summary" is placed by the core, and its skipped state is the badge', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  await page.getByRole('tab', { name: 'SKILL.md' }).click();
  await page.locator('#check-editor .cm-content').click();
  await page.keyboard.insertText('---\nname: Weekly Summary\ndescription: Writes the weekly summary. Use when asked for one.\n---\n\n# Weekly\n');
  const skills = page.locator('#check-result .hop[data-hop="Skills"]');
  await skills.filter({ hasText: 'Weekly Summary' }).waitFor();
  assert.doesNotMatch(await page.locator('#check-result').textContent(), /skills\/Weekly\/SKILL\.md/);
  assert.match(await skills.locator('.state').first().textContent(), /every skill skipped/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the whole page, editor and wasm included, transfers under 1.2 MB gzip', () => {
  const sizes = OWN_ASSETS.filter((path) => path !== '/').map((path) => {
    const file = join(repoRoot, 'www', path === '/index.html' ? 'index.html' : path);
    return [path, gzipSync(readFileSync(file), { level: 9 }).length];
  });
  const total = sizes.reduce((sum, [, size]) => sum + size, 0);
  console.log(`transfer (gzip): ${sizes.map(([path, size]) => `${path} ${(size / 1024).toFixed(0)} KiB`).join(', ')}; total ${(total / 1024).toFixed(0)} KiB`);
  assert.ok(total < 1200 * 1024, `the page transfers ${(total / 1024).toFixed(0)} KiB gzip`);
});

test('the policy refuses every connection, even to the own server', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await waitReady(page);
  const refused = await page.evaluate(async () => {
    try {
      await fetch('/index.html');
      return false;
    } catch {
      return true;
    }
  });
  assert.ok(refused, 'fetch() went through: connect-src is not enforced');
  // The violation report arrives a moment later.
  for (let waited = 0; waited < 2000 && !problems.some((p) => /CSP violation: connect-src/.test(p)); waited += 50) await page.waitForTimeout(50);
  assert.ok(problems.some((problem) => /CSP violation: connect-src/.test(problem)), problems.join('\n'));
  await context.close();
});
