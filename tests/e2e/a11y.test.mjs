// Every view, light and dark, at 1400 px and 400 px: a screenshot of each
// (into target/e2e-screens/, to look at), axe-core with no serious or critical
// violation (at 400 px none at all), and no pane scrolling sideways at 400 px. axe-core is injected by
// the test through the DevTools protocol; the page never ships or loads it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { join } from 'node:path';
import { dropFolder, openPage, readFolder, repoRoot, screenshot, servePageForEachFile, shared, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWS = ['check', 'snapshot', 'format', 'schema', 'diff', 'rules'];

/** axe's serious and critical violations; with `everyImpact`, every violation (at 400 px axe must report nothing). */
async function violations(page, everyImpact) {
  await page.evaluate(axeSource);
  const results = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((violation) => everyImpact || violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')}`);
}

/** Elements inside the visible view that are wider than their scroll container (a sideways scroll). */
async function sidewaysScrollers(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.view:not([hidden]) .pane, .view:not([hidden]) .result-pane, main')]
      .filter((element) => element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible')
      .map((element) => `${element.tagName.toLowerCase()}#${element.id}.${[...element.classList].join('.')} ${element.scrollWidth}>${element.clientWidth}`),
  );
}

for (const colorScheme of ['light', 'dark']) {
  for (const width of [1400, 400]) {
    test(`every view in ${colorScheme} at ${width} px: screenshot, axe, no sideways scroll`, { timeout: 120_000 }, async () => {
      const { context, page, problems } = await openPage(browser, `${origin}/#check`, { colorScheme, viewport: { width, height: 900 } });
      await waitReady(page);
      const findings = [];
      for (const view of VIEWS) {
        // The Rules view with a doc open: its example blocks scroll sideways at 400 px, so they must be focusable.
        await page.evaluate((view) => (location.hash = view === 'rules' ? 'rules/AP206' : view), view);
        await page.waitForSelector(`#view-${view}:not([hidden])`);
        if (view === 'rules') await page.locator('#rule-doc .example pre').first().waitFor();
        if (view === 'check') {
          // A collection: the summary table, and every report's hops and component tables.
          await dropFolder(page, '#check-drop', 'nearmiss', readFolder(join(shared, 'corpus/nearmiss')));
          await page.waitForFunction(() => document.querySelector('#check-result .folder')?.dataset.root === 'nearmiss');
          // The file tree with a file open, and that file's JSON tree view beside it.
          await page.locator('#check-files [role=treeitem][data-path$="/plugin.json"] .name').first().click();
          await page.waitForFunction(() => document.querySelector('#check-filetabs [aria-selected=true]')?.textContent.includes('(dropped)'));
        }
        if (view === 'check' || view === 'format') {
          await page.locator(`#view-${view} button.tree-toggle`).click();
          await page.locator(`#view-${view} .json-tree [role=treeitem][aria-level="2"]`).first().waitFor();
        }
        if (view === 'snapshot') {
          // The Tool call task: its form, built from the tool's inputSchema, is looked at too.
          // The change report of the sample pair, with its Diff buttons, is looked at first.
          await page.locator('#snapshot-root .segmented button[data-task="changes"]').click();
          await page.locator('#snapshot-root table.components').waitFor();
          for (const violation of await violations(page, width === 400)) findings.push(`snapshot changes: ${violation}`);
          if (width === 400) for (const scroller of await sidewaysScrollers(page)) findings.push(`snapshot changes: scrolls sideways: ${scroller}`);
          await page.locator('#snapshot-root .segmented button[data-task="lint"]').click();
          await page.locator('#snapshot-root [aria-label="Snapshot"]').click();
          await page.keyboard.press('Control+a');
          await page.keyboard.insertText(readFileSync(join(repoRoot, 'tests/fixtures/invoice-ops/snapshot.json'), 'utf8'));
          await page.locator('#snapshot-root .segmented button[data-task="call"]').click();
          await page.locator('#call-form .field-error:not(:empty)').first().waitFor();
        }
        await page.waitForTimeout(300);
        await screenshot(page, `${view}-${colorScheme}-${width}`);
        if (view === 'check') {
          await page.locator('#check-result table.summary').scrollIntoViewIfNeeded();
          await screenshot(page, `${view}-${colorScheme}-${width}-result`);
        }
        for (const violation of await violations(page, width === 400)) findings.push(`${view}: ${violation}`);
        if (width === 400) for (const scroller of await sidewaysScrollers(page)) findings.push(`${view}: scrolls sideways: ${scroller}`);
      }
      assert.deepEqual(findings, []);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}
