// The Diff view: two JSON documents side by side or inline (CodeMirror's merge
// view, word-level highlights), and the core's structural diff: the path list
// (moves included), JSON Patch (RFC 6902), merge patch (RFC 7386) and a
// unified diff — each to copy or download. Array keys and ignored paths are settable.

import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { baseExtensions } from '../editor.js';
import { callWithProgress, checkbox, copyButton, debounce, downloadButton, h, longList, openFileButton, plural, resultArea, select, status } from '../util.js';

const SAMPLE_A = `{
  "tools": [
    { "name": "echo", "description": "Echoes the input" },
    { "name": "add", "description": "Adds two numbers" },
    { "name": "sleep", "description": "Waits" }
  ],
  "version": "1.0.0"
}
`;
const SAMPLE_B = `{
  "tools": [
    { "name": "add", "description": "Adds two numbers" },
    { "name": "echo", "description": "Echoes the message back" }
  ],
  "version": "1.1.0",
  "license": "MIT"
}
`;

const options = { arrayKeys: [], ignore: [], noDefaultKeys: false };
const DIFF_BUDGET = { scanLimit: 2000, timeout: 150 };
let mode = 'side';
let texts = { a: SAMPLE_A, b: SAMPLE_B };
let host;
let results;
let current = null;
let rerun;

function listOf(text) {
  return text.split(/[\s,]+/).filter(Boolean);
}

function onEdit(side) {
  return EditorView.updateListener.of((update) => {
    if (!update.docChanged) return;
    texts[side] = update.state.doc.toString();
    results.changed();
    rerun();
  });
}

function label(side) {
  return EditorView.contentAttributes.of({ 'aria-label': side === 'a' ? 'Document A (before)' : 'Document B (after)' });
}

function mount() {
  current?.destroy();
  host.replaceChildren();
  if (mode === 'side') {
    current = new MergeView({
      parent: host,
      a: { doc: texts.a, extensions: [baseExtensions('json'), onEdit('a'), label('a')] },
      b: { doc: texts.b, extensions: [baseExtensions('json'), onEdit('b'), label('b')] },
      highlightChanges: true,
      gutter: true,
      // The editors' own text diff runs on the main thread: bound it, so huge documents never freeze the page.
      diffConfig: DIFF_BUDGET,
    });
  } else {
    current = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: texts.b,
        extensions: [baseExtensions('json'), onEdit('b'), label('b'), unifiedMergeView({ original: texts.a, mergeControls: false, gutter: true, diffConfig: DIFF_BUDGET })],
      }),
    });
  }
}

const KIND_SIGN = { added: '+', removed: '−', changed: '~', moved: '↷' };

function short(value) {
  if (value === undefined) return '';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function changeItem(change) {
  const detail =
    change.kind === 'changed' ? `${short(change.old)} → ${short(change.new)}`
    : change.kind === 'added' ? short(change.new)
    : change.kind === 'removed' ? short(change.old)
    : `from ${change.old_path}`;
  const lines = [change.old_line && `A:${change.old_line}`, change.new_line && `B:${change.new_line}`].filter(Boolean).join(' ');
  return h(`li.${change.kind}`, {}, `${KIND_SIGN[change.kind] ?? ''} ${change.label} `, h('span.muted', {}, detail), lines ? h('span.muted', {}, ` (${lines})`) : null);
}

function outputBlock(title, filename, text, type, body = h('pre.block', {}, text), note = null) {
  return h(
    'section.output',
    {},
    h('div.row', {}, h('strong', {}, title), copyButton('Copy', () => text, `${title} copied`), downloadButton('Download', filename, () => text, type)),
    note,
    body,
  );
}

// Past this many hunks the rendered diff only slows the page; copy or download has all of it.
const UNIFIED_HUNKS_SHOWN = 200;

/** The core's unified diff, its changed words emphasized. */
function unifiedBody(unified) {
  return h(
    'pre.block.unified',
    {},
    unified.hunks.slice(0, UNIFIED_HUNKS_SHOWN).map((hunk) => [
      h('span.hunk', {}, `${hunk.header}\n`),
      hunk.lines.map((line) =>
        h(`span.line${line.tag === '+' ? '.add' : line.tag === '-' ? '.del' : ''}`, {}, line.tag, line.segments.map((segment) => (segment.emphasized ? h('mark', {}, segment.text) : segment.text))),
      ),
    ]),
    unified.hunks.length > UNIFIED_HUNKS_SHOWN ? h('span.muted', {}, `… ${unified.hunks.length - UNIFIED_HUNKS_SHOWN} more hunks: copy or download the whole diff.`) : null,
  );
}

async function run() {
  const ticket = results.ticket();
  const answer = await callWithProgress('Diffing', 'diff_json', texts.a, texts.b, JSON.stringify({ ...options, names: ['a.json', 'b.json'] }));
  if (!answer) return results.cancelled(ticket);
  if (!answer.ok) {
    const { error } = answer;
    const which = error.document === 'a' ? 'A' : error.document === 'b' ? 'B' : null;
    results.show(ticket, status('bad', which ? `Document ${which} does not parse at ${error.line}:${error.column}: ${error.message}` : error.message));
    return;
  }
  const { summary } = answer;
  const counts = `${plural(summary.added, 'addition')}, ${plural(summary.removed, 'removal')}, ${plural(summary.changed, 'change')}, ${plural(summary.moved, 'move')}`;
  results.show(
    ticket,
    answer.equal ? status('ok', 'The documents are equal as JSON.') : status('warn', counts),
    answer.changes.length ? longList('ol.paths', answer.changes, changeItem, { first: 300, what: 'more paths' }) : '',
    h(
      'div.outputs',
      {},
      outputBlock('JSON Patch (RFC 6902)', 'patch.json', JSON.stringify(answer.patch, null, 2)),
      outputBlock(
        'Merge patch (RFC 7386)',
        'merge-patch.json',
        JSON.stringify(answer.merge.patch, null, 2),
        'application/merge-patch+json',
        undefined,
        answer.merge.lossy.length
          ? status('warn', `A merge patch cannot set a value to null; it would delete instead: ${answer.merge.lossy.join(', ')}. Use the JSON Patch.`)
          : null,
      ),
      outputBlock('Unified diff', 'a-b.diff', answer.unified.text, 'text/x-diff', unifiedBody(answer.unified)),
    ),
  );
}

function loadInto(side, text) {
  texts[side] = text;
  results.changed();
  mount();
  run();
}

export function setUpDiffView() {
  const root = document.getElementById('diff-root');
  rerun = debounce(run, 300);
  host = h('div.merge-host');
  results = resultArea(h('div.diff-results', { 'aria-live': 'polite' }));
  const keys = h('input', { type: 'text', placeholder: '/tools=name', size: 18, title: 'Match array elements by key: POINTER=FIELD, comma-separated', onchange: () => ((options.arrayKeys = listOf(keys.value)), results.changed(), run()) });
  const ignore = h('input', { type: 'text', placeholder: '/*/status', size: 16, title: 'Ignore these paths (* matches one step), comma-separated', onchange: () => ((options.ignore = listOf(ignore.value)), results.changed(), run()) });
  const filePicker = (side) => openFileButton(`diff-load-${side}`, `Open ${side.toUpperCase()}…`, '.json,application/json', (text) => loadInto(side, text));
  root.append(
    h(
      'div.toolbar',
      {},
      select('View', [['side', 'side by side'], ['inline', 'inline']], { value: mode, onChange: (value) => ((mode = value), mount()) }).element,
      h('label', {}, 'Array keys ', keys),
      h('label', {}, 'Ignore ', ignore),
      checkbox('No default keys', { title: 'Do not match array elements by name/id on their own', onChange: (v) => ((options.noDefaultKeys = v), results.changed(), run()) }).element,
      filePicker('a'),
      filePicker('b'),
      h('button.primary', { type: 'button', onclick: run, title: 'Ctrl+Enter' }, 'Diff'),
    ),
    host,
    results.element,
  );
  mount();
  run();
}

export const diffView = { run: () => run() };
