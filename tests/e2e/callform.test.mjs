// The tool-call form: built from the picked tool's inputSchema,
// kept in sync both ways with the arguments' JSON editor, validated by the core
// as you type with its messages at their fields, accessible, and usable at 400 px.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { offOrigin, openPage, repoRoot, screenshot, servePageForEachFile, waitReady } from './harness.mjs';

let browser;
let origin;
servePageForEachFile((served) => ({ browser, origin } = served));

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The invoice-ops reference snapshot with one tool whose schema uses every kind of field the form has. */
function snapshotWithRichTool() {
  const snapshot = JSON.parse(readFileSync(join(repoRoot, 'tests/fixtures/invoice-ops/snapshot.json'), 'utf8'));
  snapshot.tools[0].inputSchema = {
    type: 'object',
    required: ['week', 'limit'],
    properties: {
      week: { type: 'string', description: 'ISO week', pattern: '^[0-9]{4}-W[0-9]{2}$' },
      status: { type: 'string', enum: ['open', 'paid', 'overdue'] },
      limit: { type: 'integer', minimum: 1, exclusiveMaximum: 100 },
      ratio: { type: 'number', maximum: 1 },
      note: { type: 'string', minLength: 2, maxLength: 20, format: 'email' },
      draft: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      when: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
  };
  return `${JSON.stringify(snapshot, null, 2)}\n`;
}

async function typeInto(page, label, text) {
  await page.locator(`#snapshot-root [aria-label="${label}"]`).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

const argumentsText = (page) => page.evaluate(() => [...document.querySelectorAll('#snapshot-root [aria-label="tools/call arguments"] .cm-line')].map((line) => line.textContent).join('\n'));
const argumentsValue = async (page) => JSON.parse(await argumentsText(page));
const field = (page, name) => page.locator(`#call-form .field[data-name="${name}"]`);
const control = (page, name) => field(page, name).locator('.control');

/** Waits until the core answered for the inputs on screen (the form is no longer busy and the result not stale). */
async function checked(page) {
  await page.waitForFunction(
    () => {
      const form = document.getElementById('call-form');
      const result = document.getElementById('snapshot-result');
      return form?.querySelector('fieldset') && !form.hasAttribute('aria-busy') && result.dataset.stale !== 'true' && result.querySelector('.status');
    },
    null,
    { timeout: 30_000 },
  );
}

/** The core's message shown at a field, after waiting for the answer. */
async function errorOf(page, name) {
  await checked(page);
  return field(page, name).locator('.field-error').textContent();
}

async function openCallForm(page) {
  await typeInto(page, 'Snapshot', snapshotWithRichTool());
  await page.locator('#snapshot-root .segmented button[data-task="call"]').click();
  await page.locator('#call-form fieldset').waitFor({ timeout: 30_000 });
  await checked(page);
}

async function seriousViolations(page) {
  await page.evaluate(axeSource);
  const results = await page.evaluate(() => globalThis.axe.run(document.getElementById('view-snapshot'), { resultTypes: ['violations'] }));
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

test('a field per property, with what the schema asks shown, and JSON where a field cannot express it', async () => {
  const { context, page, problems, requests } = await openPage(browser, `${origin}/#snapshot`);
  await waitReady(page);
  await openCallForm(page);
  assert.equal(await page.locator('#call-form legend').textContent(), 'Arguments of invoice-tools/query_invoices');
  // Required marks, for the eye and for assistive technology.
  assert.equal(await control(page, 'week').getAttribute('aria-required'), 'true');
  assert.equal(await control(page, 'status').getAttribute('aria-required'), null);
  assert.match(await field(page, 'week').locator('label').textContent(), /week \* \(required\)/);
  // Enums as selects (with "not set", since status is optional), booleans as checkboxes.
  assert.deepEqual(await control(page, 'status').locator('option').allTextContents(), ['(not set)', 'open', 'paid', 'overdue']);
  assert.equal(await control(page, 'draft').getAttribute('type'), 'checkbox');
  assert.equal(await control(page, 'draft').evaluate((box) => box.indeterminate), true);
  // Bounds, lengths, pattern and format are shown.
  const hint = (name) => field(page, name).locator('.field-hint').textContent();
  assert.equal(await hint('limit'), 'integer · ≥ 1 · < 100');
  assert.equal(await hint('ratio'), '≤ 1');
  assert.equal(await hint('note'), 'at least 2 characters · at most 20 characters · format email');
  assert.equal(await hint('week'), 'ISO week — matches ^[0-9]{4}-W[0-9]{2}$');
  // What the form cannot express is JSON, and says so.
  assert.equal(await hint('tags'), 'As JSON: the form has no field for an array.');
  assert.equal(await hint('when'), 'As JSON: the form has no field for anyOf.');
  assert.equal(await control(page, 'tags').evaluate((element) => element.tagName), 'TEXTAREA');
  // {} misses both required arguments: the core's message is at each field, tied to it.
  assert.match(await errorOf(page, 'week'), /"week" is a required property/);
  assert.match(await errorOf(page, 'limit'), /"limit" is a required property/);
  assert.equal(await control(page, 'week').getAttribute('aria-invalid'), 'true');
  const describedBy = (await control(page, 'week').getAttribute('aria-describedby')).split(' ');
  assert.ok(describedBy.includes(await field(page, 'week').locator('.field-error').getAttribute('id')));
  await screenshot(page, 'call-form');
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(problems, []);
  assert.deepEqual(offOrigin(requests, origin), []);
  await context.close();
});

test('the form writes the JSON, the JSON fills the form, and the core checks as you type', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#snapshot`);
  await waitReady(page);
  await openCallForm(page);

  // Form → JSON, every kind of field; numbers keep the digits typed.
  await control(page, 'week').fill('2026-09');
  await control(page, 'limit').fill('5');
  await control(page, 'ratio').fill('0.50');
  await control(page, 'status').selectOption('paid');
  await control(page, 'draft').check();
  await control(page, 'tags').fill('["a", "b"]');
  await page.waitForFunction(() => document.querySelector('#snapshot-root [aria-label="tools/call arguments"]').textContent.includes('"tags"'));
  assert.deepEqual(await argumentsValue(page), { week: '2026-09', limit: 5, ratio: 0.5, status: 'paid', draft: true, tags: ['a', 'b'] });
  assert.match(await argumentsText(page), /"ratio": 0\.50/);

  // The core's messages while typing: a bad week is marked at its field, and cleared when fixed.
  assert.match(await errorOf(page, 'week'), /does not match/);
  assert.equal(await control(page, 'week').getAttribute('aria-invalid'), 'true');
  await control(page, 'week').fill('2026-W09');
  assert.equal(await errorOf(page, 'week'), '');
  assert.equal(await control(page, 'week').getAttribute('aria-invalid'), 'false');
  await page.locator('#snapshot-result > .status.ok').filter({ hasText: /valid for invoice-tools\/query_invoices/ }).waitFor({ timeout: 30_000 });

  // A value the schema does not allow is still written, as typed, so the core can say why.
  await control(page, 'limit').fill('100');
  assert.match(await errorOf(page, 'limit'), /100/);
  await control(page, 'limit').fill('many');
  assert.equal((await argumentsValue(page)).limit, 'many');
  assert.match(await errorOf(page, 'limit'), /not of type "integer"/);
  await control(page, 'limit').fill('7');

  // Remove takes an optional argument out again (not false, not "").
  await field(page, 'draft').getByRole('button', { name: 'Remove draft from the arguments' }).click();
  await page.waitForFunction(() => !document.querySelector('#snapshot-root [aria-label="tools/call arguments"]').textContent.includes('"draft"'));
  assert.equal(await control(page, 'draft').evaluate((box) => box.indeterminate), true);

  // JSON → form.
  await typeInto(page, 'tools/call arguments', '{"week": "2026-W10", "status": "open", "limit": 3, "note": 42, "extra": true}');
  await page.waitForFunction(() => document.querySelector('#call-form .field[data-name="week"] .control').value === '2026-W10');
  assert.equal(await control(page, 'status').inputValue(), '0');
  assert.equal(await control(page, 'limit').inputValue(), '3');
  // A value of another type than the field's is shown as JSON, never as if it fitted.
  assert.equal(await control(page, 'note').evaluate((element) => element.tagName), 'TEXTAREA');
  assert.equal(await control(page, 'note').inputValue(), '42');
  assert.match(await field(page, 'note').locator('.field-hint').textContent(), /a number, which the schema does not expect here/);
  assert.match(await page.locator('#call-form').textContent(), /not among the schema's properties.*extra/);
  assert.match(await errorOf(page, 'note'), /not of type "string"/);

  // JSON that does not parse: the form keeps the last arguments, marked out of date, and cannot be edited.
  await typeInto(page, 'tools/call arguments', '{"week": ');
  await page.locator('#call-form fieldset[disabled] .status.warn').filter({ hasText: /Out of date: the arguments are not JSON/ }).waitFor({ timeout: 30_000 });
  assert.equal(await control(page, 'week').inputValue(), '2026-W10');
  await typeInto(page, 'tools/call arguments', '[1]');
  await page.locator('#call-form .status.warn').filter({ hasText: /an array, not an object/ }).waitFor({ timeout: 30_000 });
  await typeInto(page, 'tools/call arguments', '{"week": "2026-W11", "limit": 2}');
  await page.waitForFunction(() => !document.querySelector('#call-form fieldset').disabled);
  assert.equal(await control(page, 'week').inputValue(), '2026-W11');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a value outside an enum keeps the enum\'s select, the value shown and marked invalid', async () => {
  const { context, page, problems } = await openPage(browser, `${origin}/#snapshot`);
  await waitReady(page);
  await openCallForm(page);
  await typeInto(page, 'tools/call arguments', '{"week": "2026-W10", "status": "closed", "limit": 3}');
  await page.waitForFunction(() => document.querySelector('#call-form .field[data-name="week"] .control').value === '2026-W10');
  assert.equal(await control(page, 'status').evaluate((element) => element.tagName), 'SELECT');
  assert.equal(await control(page, 'status').evaluate((select) => select.selectedOptions[0].textContent), 'closed (not allowed)');
  assert.doesNotMatch(await field(page, 'status').locator('.field-hint').textContent(), /does not expect/);
  assert.equal(await control(page, 'status').getAttribute('aria-invalid'), 'true');
  assert.match(await errorOf(page, 'status'), /not one of "open", "paid" or "overdue"/);
  assert.equal(await control(page, 'status').getAttribute('aria-invalid'), 'true');
  // Picking an allowed value writes it, and the mark goes.
  await control(page, 'status').selectOption({ label: 'paid' });
  await page.waitForFunction(() => document.querySelector('#snapshot-root [aria-label="tools/call arguments"]').textContent.includes('"paid"'));
  assert.equal(await errorOf(page, 'status'), '');
  assert.equal(await control(page, 'status').getAttribute('aria-invalid'), 'false');
  assert.deepEqual(problems, []);
  await context.close();
});

test('at 400 px, light and dark: the form fits, and axe finds nothing serious', { timeout: 120_000 }, async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { context, page, problems } = await openPage(browser, `${origin}/#snapshot`, { colorScheme, viewport: { width: 400, height: 900 } });
    await waitReady(page);
    await openCallForm(page);
    await control(page, 'week').fill('bad');
    await errorOf(page, 'week');
    await page.locator('#call-form').scrollIntoViewIfNeeded();
    await screenshot(page, `call-form-${colorScheme}-400`);
    const sideways = await page.evaluate(() =>
      [document.getElementById('call-form'), ...document.querySelectorAll('#call-form .field')].filter((element) => element.scrollWidth > element.clientWidth + 1).map((element) => element.dataset.name ?? element.id),
    );
    assert.deepEqual(sideways, []);
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(problems, []);
    await context.close();
  }
});
