// The rule registry, read once from the core (`rules()`), and the Rules view:
// every rule's doc offline, the same text as `apcheck explain CODE`.

import { earlyRules, lane } from './client.js';
import { copyButton, h } from './util.js';

// This view's jobs run on its own worker: they never wait behind another view's.
const core = lane('rules');

let registry = [];
const byCode = new Map();

/**
 * Reads the registry: from the page's first worker, which reads it unasked as
 * soon as its core is loaded (www/src/boot.js), else (no such worker, or it
 * failed or was ended first) from this view's worker.
 */
export async function loadRules() {
  const early = earlyRules();
  registry = await (early ? early.catch(() => core.call('rules')) : core.call('rules'));
  byCode.clear();
  for (const rule of registry) byCode.set(rule.code, rule);
  return registry;
}

export function ruleByCode(code) {
  return byCode.get(code);
}

// Examples come in several shapes (see `rules::Example`): a package's files,
// a package with links, words, a snapshot, two snapshots, a call. All become
// labelled texts here.
function exampleInputs({ kind, files }) {
  if (typeof files === 'string') return [[kind === 'described' ? 'described' : `${kind}.json`, files]];
  if (Array.isArray(files)) return files;
  return Object.entries(files ?? {}).flatMap(([key, value]) => {
    if (typeof value === 'string') return [[key === 'tool' ? 'tool' : `${key}.json`, value]];
    if (key === 'links') return value.map(([path, target]) => [path, `-> ${target} (symlink)`]);
    return value;
  });
}

function exampleBlock(title, example) {
  return h(
    'div.example',
    {},
    h('h3', {}, title),
    exampleInputs(example ?? {}).map(([label, contents]) => h('figure', {}, h('figcaption', {}, h('code', {}, label)), h('pre', { tabindex: 0 }, h('code', {}, contents)))),
  );
}

/** Rule prose marks code with Markdown backticks: odd-numbered pieces of a split on '`' are code. */
export const codeSpans = (text) => String(text).split('`').map((piece, i) => (i % 2 ? h('code', {}, piece) : piece));
const prose = (tag, text) => h(tag, {}, codeSpans(text));

// The latest showDoc call: an earlier one whose answer arrives later (the page
// asks for a doc both when the registry loads and when the address names one)
// must not add its doc beside the newer one.
let shownRequest = 0;

async function showDoc(code) {
  const doc = document.getElementById('rule-doc');
  const request = ++shownRequest;
  doc.replaceChildren();
  if (!code) {
    doc.append(h('p.muted', {}, registry.length ? 'Pick a rule to read its doc.' : 'No rules are registered in this build.'));
    return;
  }
  const answer = await core.call('explain', code);
  if (request !== shownRequest) return;
  doc.replaceChildren();
  if (!answer.ok) {
    doc.append(h('p.error', {}, answer.error.message));
    return;
  }
  const { rule, text } = answer;
  doc.append(
    h('h2', {}, h('span.code', {}, rule.code), ' ', rule.name),
    h('p', {}, h(`span.sev.${rule.severity}`, {}, rule.severity), ' ', h('span.spec', {}, rule.spec)),
    prose('p.summary', rule.summary),
    h('h3', {}, 'What it checks'),
    prose('p', rule.doc.what),
    h('h3', {}, 'Why it matters'),
    prose('p', rule.doc.why),
    ...(rule.fix_hint ? [h('h3', {}, 'How to fix'), prose('p', rule.fix_hint)] : []),
    exampleBlock('Example (fails)', rule.doc.failing),
    exampleBlock('Fixed', rule.doc.fixed),
    h('div.row', {}, copyButton('Copy as apcheck explain', () => text, 'Rule doc copied')),
  );
  doc.focus();
}

function renderList(filter) {
  const list = document.getElementById('rules-list');
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = registry.filter((rule) => {
    const haystack = `${rule.code} ${rule.name} ${rule.summary} ${rule.spec}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
  list.replaceChildren(
    ...shown.map((rule) =>
      h('li', {}, h('a', { href: `#rules/${rule.code}` }, h('span.code', {}, rule.code), ' ', h(`span.sev.${rule.severity}`, {}, rule.severity), ' ', codeSpans(rule.summary))),
    ),
  );
  if (shown.length === 0) list.append(h('li.muted', {}, registry.length ? 'No rule matches.' : 'No rules are registered in this build.'));
}

export function setUpRulesView() {
  const filter = document.getElementById('rules-filter');
  filter.addEventListener('input', () => renderList(filter.value));
  renderList('');
}

/** Called by the router with the part after `#rules/`. */
export function openRule(code) {
  renderList(document.getElementById('rules-filter').value);
  return showDoc(code);
}
