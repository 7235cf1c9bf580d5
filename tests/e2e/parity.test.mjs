// One truth: for every corpus root a browser can represent, the
// page's JSON, SARIF and Markdown downloads of a dropped folder equal what
// `apcheck check --format …` prints for the same folder, byte for byte. A
// browser cannot know the folder's absolute place, so the page's SARIF has no
// `originalUriBaseIds`; the CLI leaves its own out with `--no-sarif-base`, and
// both logs' URIs are then relative to the folder holding the dropped one.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';
import { dropFolder, openPage, readFolder, repoRoot, servePageForEachFile, shared, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const parityDir = join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'e2e-parity');
const cli = process.env.APCHECK_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'apcheck');

function corpusRoots() {
  const index = readFileSync(join(shared, 'corpus', 'INDEX.tsv'), 'utf8').trim().split('\n').slice(1);
  return index.map((row) => join(shared, 'corpus', row.split('\t')[0]));
}

/** What the CLI prints for `root`, named as the page names a dropped folder: by its own name. */
function cliOutput(root, format) {
  const args = ['check', basename(root), '--format', format, ...(format === 'sarif' ? ['--no-sarif-base'] : [])];
  try {
    return execFileSync(cli, args, { cwd: dirname(root), encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (error) {
    // Exit 1 means findings; the output is still the report.
    if (error.status === 1) return error.stdout;
    throw error;
  }
}

/**
 * What a download button saves: the Blob the page hands to the browser's
 * download (read in the page; hundreds of real downloads in a row are
 * throttled by Chromium).
 */
async function downloaded(page, label) {
  await page.evaluate(() => (window.savedBlob = null));
  await page.locator('#check-result').getByRole('button', { name: label, exact: true }).dispatchEvent('click');
  // The core renders the download when it is asked for, in the worker.
  await page.waitForFunction(() => window.savedBlob !== null, null, { timeout: 20_000 });
  return page.evaluate(() => window.savedBlob.text());
}

test('the JSON, SARIF and Markdown downloads equal the CLI for every corpus root', { timeout: 600_000 }, async () => {
  assert.ok(existsSync(cli), `${cli} is missing: build it with \`cargo build\` (or set APCHECK_BIN)`);
  const { context, page, problems } = await openPage(browser, `${origin}/#check`);
  await page.evaluate(() => {
    const createObjectURL = URL.createObjectURL;
    URL.createObjectURL = (blob) => ((window.savedBlob = blob), createObjectURL(blob));
  });
  await waitReady(page);
  const roots = corpusRoots();
  assert.ok(roots.length >= 60, `${roots.length} corpus roots`);
  const mismatches = [];
  for (const root of roots) {
    const name = basename(root);
    await dropFolder(page, '#check-drop', name, readFolder(root));
    await page.waitForFunction(
      (name) => {
        const result = document.querySelector('#check-result');
        return result.dataset.stale !== 'true' && result.querySelector('.folder')?.dataset.root === name;
      },
      name,
      { timeout: 20_000 },
    );
    const json = await downloaded(page, 'JSON');
    const expectedJson = cliOutput(root, 'json');
    if (json !== expectedJson) {
      mismatches.push(`${name}: JSON`);
      // Both sides kept for a look: target/e2e-parity/<root>.{page,cli}.json.
      mkdirSync(parityDir, { recursive: true });
      writeFileSync(join(parityDir, `${name}.page.json`), json);
      writeFileSync(join(parityDir, `${name}.cli.json`), expectedJson);
    }
    if ((await downloaded(page, 'SARIF')) !== cliOutput(root, 'sarif')) mismatches.push(`${name}: SARIF`);
    if ((await downloaded(page, 'Markdown')) !== cliOutput(root, 'markdown')) mismatches.push(`${name}: Markdown`);
  }
  assert.deepEqual(mismatches, []);
  assert.deepEqual(problems, []);
  await context.close();
});
