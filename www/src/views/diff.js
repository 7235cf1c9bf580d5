// The Diff view: two JSON documents side by side or inline (CodeMirror's merge
// view, word-level highlights), and the core's structural diff: the path list
// (moves included), JSON Patch (RFC 6902), merge patch (RFC 7386) and a
// unified diff — each to copy or download. Array keys and ignored paths are settable.
//
// Big documents: the diff's results stay in the worker, which sends the rows the
// path list shows (a virtual list) and a patch only when one is asked for; the
// merge view waits for a click above MERGE_VIEW_BYTES, and a document with
// lines too long to draw is not put in an editor until it is pretty-printed.
// So the page never holds, renders or parses more than a screenful at a time.

import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { lane } from '../client.js';
import { baseExtensions } from '../editor.js';
import { keep, keeper } from '../keep.js';
import { checkbox, copyButton, debounce, downloadButton, h, isCancelled, openFileButton, plural, resultArea, select, status, toast, withProgress } from '../util.js';

// This view's jobs run on its own worker: they never wait behind another view's.
const core = lane('diff');

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

// Up to this many bytes in A and B together the merge view (a text diff on the
// main thread) is shown at once, and the patches come with the diff.
const MERGE_VIEW_BYTES = 512 * 1024;
// An editor draws a line whole: past this many characters on one line it
// would hold up the page, so such a document waits to be pretty-printed.
const LONG_LINE = 20_000;
// Patch texts up to this size are shown whole; bigger ones as a list of operations.
const PATCH_SHOWN_BYTES = 64 * 1024;
const ROW_HEIGHT = 24;
const LIST_HEIGHT = 320;
const ROWS_PER_FETCH = 200;
const DIFF_BUDGET = { scanLimit: 2000, timeout: 150 };
const KIND_SIGN = { added: '+', removed: '−', changed: '~', moved: '↷' };

const options = { arrayKeys: [], ignore: [], noDefaultKeys: false };
let mode = 'side';
let collapse = false;
let mergeRequested = false;
let texts = { a: SAMPLE_A, b: SAMPLE_B };
let names = { a: 'a.json', b: 'b.json' };
let host;
let results;
let keysInput;
let editors = { a: null, b: null };
let current = null;
let mounted = [];
let rerun;
let shown = null;
let kept;
/** Files another view opened here before this view was set up, when they could not be kept. */
let handed = null;

const listOf = (text) => text.split(/[\s,]+/).filter(Boolean);
const big = () => texts.a.length + texts.b.length > MERGE_VIEW_BYTES;

function longestLine(text) {
  let longest = 0;
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    longest = Math.max(longest, stop - start);
    start = stop + 1;
  }
  return longest;
}

function kib(n) {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
}

function onEdit(side) {
  return EditorView.updateListener.of((update) => {
    if (!update.docChanged) return;
    texts[side] = update.state.doc.toString();
    isSample[side] = false;
    results.changed();
    kept.changed();
    rerun();
  });
}

function label(side) {
  return EditorView.contentAttributes.of({ 'aria-label': side === 'a' ? 'Document A (before)' : 'Document B (after)' });
}

// Big documents are shown as plain text: parsing megabytes for highlighting
// runs on the main thread, in slices long enough to stall it.
function sideExtensions(side, language = 'json') {
  return [baseExtensions(language), onEdit(side), label(side)];
}

/** A plain editor for one side of a big diff, or a note when its lines are too long to draw. */
function plainSide(side) {
  const text = texts[side];
  // A fixed height makes the editor its own scroller, so it draws only what is in view.
  const pane = h('div.diff-side', { style: 'flex: 1 1 0; min-width: 0; height: 50vh; overflow: hidden' });
  if (longestLine(text) > LONG_LINE) {
    pane.append(
      h(
        'div.note',
        { style: 'padding: 1em' },
        h('p', {}, `Document ${side.toUpperCase()} (${names[side]}, ${kib(text.length)}) has lines too long for an editor to draw without holding up the page.`),
        h('button.small', { type: 'button', 'data-action': `pretty-${side}`, onclick: () => prettyPrint(side) }, `Pretty-print ${side.toUpperCase()}`),
      ),
    );
    return { pane, view: null };
  }
  const view = new EditorView({ parent: pane, state: EditorState.create({ doc: text, extensions: sideExtensions(side, 'text') }) });
  return { pane, view };
}

function mount() {
  for (const view of mounted) view.destroy();
  mounted = [];
  current = null;
  editors = { a: null, b: null };
  host.replaceChildren();
  const collapseUnchanged = collapse ? { margin: 3, minSize: 6 } : undefined;
  if (big() && !mergeRequested) {
    const a = plainSide('a');
    const b = plainSide('b');
    editors = { a: a.view, b: b.view };
    mounted = [a.view, b.view].filter(Boolean);
    host.append(
      h(
        'p.muted.merge-note',
        {},
        `The documents are ${kib(texts.a.length + texts.b.length)} together: they are shown as plain text, and the merge view (a text diff in this page) waits until you ask. `,
        h('button.small', { type: 'button', 'data-action': 'merge-view', onclick: () => ((mergeRequested = true), mount()) }, 'Show the merge view'),
      ),
      h('div.diff-plain', { style: 'display: flex; gap: 8px' }, a.pane, b.pane),
    );
    return;
  }
  if (mode === 'side') {
    current = new MergeView({
      parent: host,
      a: { doc: texts.a, extensions: sideExtensions('a') },
      b: { doc: texts.b, extensions: sideExtensions('b') },
      highlightChanges: true,
      gutter: true,
      collapseUnchanged,
      // The editors' own text diff runs on the main thread: bound it, so huge documents never freeze the page.
      diffConfig: DIFF_BUDGET,
    });
    editors = { a: current.a, b: current.b };
  } else {
    current = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: texts.b,
        extensions: [...sideExtensions('b'), unifiedMergeView({ original: texts.a, mergeControls: false, gutter: true, collapseUnchanged, diffConfig: DIFF_BUDGET })],
      }),
    });
    editors = { a: null, b: current };
  }
  mounted = [current];
}

async function prettyPrint(side) {
  const answer = await run_core('Pretty-printing', () => core.request('call', { name: 'format_json', params: [texts[side], '{}'] }));
  if (!answer) return;
  if (!answer.ok) {
    toast(`Document ${side.toUpperCase()} does not parse at ${answer.error.line}:${answer.error.column}: ${answer.error.message}`);
    return;
  }
  texts[side] = answer.text;
  results.changed();
  kept.changed();
  mount();
  run();
}

/**
 * Runs a core job with the progress bar; `null` when it was cancelled or
 * failed, and the results then say which (a failure never leaves an older
 * result on screen as if it were current).
 */
async function run_core(labelText, job) {
  const ticket = results.ticket();
  try {
    return await withProgress(core, labelText, job);
  } catch (error) {
    if (isCancelled(error)) results.cancelled(ticket);
    else results.show(ticket, status('bad', `${labelText} failed: ${error.message}`));
    return null;
  }
}

/** Scrolls `view` so that 1-based `line` is in the middle, and selects its start. */
function scrollToLine(view, line) {
  if (!view || !line) return;
  const target = view.state.doc.line(Math.min(Math.max(1, line), view.state.doc.lines));
  view.dispatch({ selection: { anchor: target.from }, effects: EditorView.scrollIntoView(target.from, { y: 'center' }) });
}

/** The A and B lines of change `index`: from its row when located, else asked of the worker. */
async function linesOf(row, index) {
  if (shown.located) return { a: row.old_line, b: row.new_line };
  return core.request('diffLocate', { id: shown.id, index });
}

async function reveal(row, index) {
  const lines = await linesOf(row, index);
  scrollToLine(editors.a, lines.a);
  scrollToLine(editors.b, lines.b);
  const hidden = ['a', 'b'].filter((side) => !editors[side] && !(side === 'a' && mode === 'inline' && current));
  if (hidden.length) toast(`${hidden.map((s) => s.toUpperCase()).join(' and ')} ${hidden.length > 1 ? 'are' : 'is'} not in an editor: pretty-print first to scroll there.`);
}

/**
 * A list of `count` rows of which only the visible ones exist in the DOM.
 * `rowsAt(start, end)` resolves with the rows (fetched in pages), `render(row,
 * index)` draws one `li`, `onPick(row, index)` runs on click or Enter.
 */
function virtualList({ tag, label: listLabel, count, rowsAt, render, onPick }) {
  const cache = new Map();
  let selected = -1;
  const list = h(tag, { role: 'listbox', 'aria-label': listLabel, style: `position: relative; margin: 0; padding: 0; list-style: none; max-height: none; overflow: visible; height: ${count * ROW_HEIGHT}px` });
  const viewport = h('div.vlist', { tabindex: '0', style: `overflow: auto; max-height: ${LIST_HEIGHT}px; border: 1px solid var(--line); border-radius: 4px` }, list);
  const pending = new Set();

  function fetchPage(page) {
    if (cache.has(page) || pending.has(page)) return;
    pending.add(page);
    Promise.resolve(rowsAt(page * ROWS_PER_FETCH, Math.min(count, (page + 1) * ROWS_PER_FETCH)))
      .then((rows) => {
        cache.set(page, rows);
        draw();
      })
      .catch((error) => toast(error.message))
      .finally(() => pending.delete(page));
  }

  function rowAt(index) {
    const page = Math.floor(index / ROWS_PER_FETCH);
    const rows = cache.get(page);
    if (!rows) fetchPage(page);
    return rows?.[index - page * ROWS_PER_FETCH];
  }

  function draw() {
    const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_HEIGHT) - 10);
    const last = Math.min(count, Math.ceil((viewport.scrollTop + (viewport.clientHeight || LIST_HEIGHT)) / ROW_HEIGHT) + 10);
    const items = [];
    for (let index = first; index < last; index++) {
      const row = rowAt(index);
      const item = row ? render(row, index) : h('li.muted', {}, '…');
      item.style.cssText += `;position: absolute; top: ${index * ROW_HEIGHT}px; left: 0; right: 0; height: ${ROW_HEIGHT}px; line-height: ${ROW_HEIGHT}px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; cursor: pointer; padding: 0 6px`;
      item.setAttribute('role', 'option');
      item.dataset.index = index;
      if (index === selected) {
        item.setAttribute('aria-selected', 'true');
        item.style.outline = '2px solid var(--focus)';
        item.style.outlineOffset = '-2px';
      }
      if (row) item.addEventListener('click', () => pick(index));
      items.push(item);
    }
    list.replaceChildren(...items);
  }

  function pick(index) {
    if (count === 0) return;
    selected = Math.min(Math.max(0, index), count - 1);
    const top = selected * ROW_HEIGHT;
    if (top < viewport.scrollTop || top + ROW_HEIGHT > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = top - viewport.clientHeight / 2;
    draw();
    const page = Math.floor(selected / ROWS_PER_FETCH);
    Promise.resolve(cache.get(page) ?? rowsAt(page * ROWS_PER_FETCH, Math.min(count, (page + 1) * ROWS_PER_FETCH))).then((rows) => {
      cache.set(page, rows);
      const row = rows[selected - page * ROWS_PER_FETCH];
      if (row) onPick?.(row, selected);
    });
  }

  let frame = 0;
  viewport.addEventListener('scroll', () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(draw);
  });
  viewport.addEventListener('keydown', (event) => {
    const step = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[event.key];
    if (step) {
      event.preventDefault();
      pick(selected < 0 ? 0 : selected + step);
    } else if (event.key === 'Enter' && selected >= 0) {
      pick(selected);
    }
  });
  draw();
  return { element: viewport, pick, next: () => pick(selected + 1), previous: () => pick(selected < 0 ? 0 : selected - 1) };
}

function changeItem(row) {
  const lines = [row.old_line && `A:${row.old_line}`, row.new_line && `B:${row.new_line}`].filter(Boolean).join(' ');
  return h(`li.${row.kind}`, { title: row.path }, `${KIND_SIGN[row.kind] ?? ''} ${row.label} `, h('span.muted', {}, row.detail), lines ? h('span.muted', {}, ` (${lines})`) : null);
}

/** How arrays were matched: the key used (changeable), or a warning where matching fell back to positions. */
function matchingNotes(arrays) {
  const useKey = (path) => {
    keysInput.value = [...listOf(keysInput.value).filter((spec) => !spec.startsWith(`${path}=`)), `${path}=`].join(', ');
    keysInput.focus();
    keysInput.setSelectionRange(keysInput.value.length, keysInput.value.length);
  };
  const arraysText = (count) => (count > 1 ? ` (${plural(count, 'array')})` : '');
  const notes = arrays.map((entry) =>
    entry.by === 'key'
      ? h(
          'li.matched-key',
          {},
          `${entry.path || '/'}: elements matched by key `,
          h('code', {}, entry.key.join('+')),
          arraysText(entry.count),
          ' ',
          h('button.small', { type: 'button', onclick: () => useKey(entry.path), title: 'Type another member after = in Array keys, then press Enter' }, 'Change key…'),
        )
      : h(
          'li.fallback',
          {},
          status('warn', `${entry.path || '/'}: no member names every element uniquely, so elements were matched by position${entry.by === 'position' ? ' (pairwise by index: the arrays are too big for a sequence match)' : ''}${arraysText(entry.count)}. An inserted element then shows as many changes.`),
          h('button.small', { type: 'button', onclick: () => useKey(entry.path) }, 'Set a key…'),
        ),
  );
  return notes.length ? h('ul.array-matching', { 'aria-label': 'How arrays were matched', style: 'list-style: none; padding: 0; margin: 0.5em 0' }, notes) : null;
}

function outputBlock(title, filename, type, part, body) {
  const text = () => core.request('diffPart', { id: shown.id, part }).then((answer) => answer.text);
  return h('section.output', {}, h('div.row', {}, h('strong', {}, title), copyButton('Copy', text, `${title} copied`), downloadButton('Download', filename, text, type)), body);
}

/** A patch's body: the text when small, else a virtual list of its operations. */
async function patchBody(part) {
  const answer = await core.request('diffPart', { id: shown.id, part, preview: PATCH_SHOWN_BYTES });
  if (answer.text !== undefined) {
    return [answer.lossy?.length ? status('warn', `A merge patch cannot set a value to null; it would delete instead: ${answer.lossy.join(', ')}. Use the JSON Patch.`) : null, h('pre.block', { tabindex: '0' }, answer.text)];
  }
  const id = shown.id;
  return [
    h('p.muted', {}, `${plural(answer.count, 'operation')}, ${kib(answer.bytes)}: shown one per line; copy or download has all of it.`),
    virtualList({ tag: 'ol.patch-ops', label: 'Patch operations', count: answer.count, rowsAt: (start, end) => core.request('diffPartRows', { id, part, start, end }), render: (row) => h('li', {}, h('code', {}, row)) }).element,
  ];
}

function unifiedBody(unified) {
  return h(
    'pre.block.unified',
    // Scrollable: keyboard users reach it (axe's scrollable-region-focusable).
    { tabindex: '0' },
    unified.hunks.map((hunk) => [
      h('span.hunk', {}, `${hunk.header}\n`),
      hunk.lines.map((line) => h(`span.line${line.tag === '+' ? '.add' : line.tag === '-' ? '.del' : ''}`, {}, line.tag, line.segments.map((segment) => (segment.emphasized ? h('mark', {}, segment.text) : segment.text)), '\n')),
    ]),
    unified.more ? h('span.muted', {}, `… ${unified.more} more hunks: copy or download the whole diff.`) : null,
  );
}

/** The outputs: shown at once for small documents, each on request for big ones. */
function outputs() {
  const blocks = [
    ['JSON Patch (RFC 6902)', 'patch.json', 'application/json', 'patch'],
    ['Merge patch (RFC 7386)', 'merge-patch.json', 'application/merge-patch+json', 'merge'],
    ['Unified diff', 'a-b.diff', 'text/x-diff', 'unified'],
  ];
  return h(
    'div.outputs',
    {},
    blocks.map(([title, filename, type, part]) => {
      const body = h('div.output-body');
      const show = async () => {
        body.replaceChildren(h('p.muted', {}, 'Computing…'));
        try {
          if (part === 'unified') {
            const answer = await core.request('diffPart', { id: shown.id, part, hunks: 200 });
            body.replaceChildren(unifiedBody(answer.unified));
          } else {
            body.replaceChildren(...(await patchBody(part)).filter(Boolean));
          }
        } catch (error) {
          body.replaceChildren(status('bad', error.message));
        }
      };
      if (!big()) show();
      else body.append(h('button.small', { type: 'button', 'data-action': `show-${part}`, onclick: show }, `Show ${title}`));
      return outputBlock(title, filename, type, part, body);
    }),
  );
}

async function run() {
  const ticket = results.ticket();
  const answer = await run_core('Diffing', () =>
    core.request('diff', { a: texts.a, b: texts.b, options: { ...options, names: [names.a, names.b] }, small: !big(), first: ROWS_PER_FETCH }),
  );
  // Cancelled, or the inputs changed since: a newer run shows its own result.
  if (!answer || ticket !== results.ticket()) return;
  if (!answer.ok) {
    const { error } = answer;
    const which = error.document === 'a' ? 'A' : error.document === 'b' ? 'B' : null;
    results.show(ticket, status('bad', which ? `Document ${which} does not parse at ${error.line}:${error.column}: ${error.message}` : error.message));
    return;
  }
  shown = answer;
  const { summary } = answer;
  const counts = `${plural(summary.added, 'addition')}, ${plural(summary.removed, 'removal')}, ${plural(summary.changed, 'change')}, ${plural(summary.moved, 'move')}`;
  const id = answer.id;
  const first = answer.rows;
  const list = answer.changeCount
    ? virtualList({
        tag: 'ol.paths',
        label: 'Changed paths',
        count: answer.changeCount,
        rowsAt: (start, end) => (start === 0 && end <= first.length ? first.slice(0, end) : core.request('diffRows', { id, start, end })),
        render: changeItem,
        onPick: (row, index) => reveal(row, index).catch((error) => toast(error.message)),
      })
    : null;
  const navigation = list
    ? h(
        'div.row.diff-nav',
        {},
        h('button.small', { type: 'button', 'data-action': 'previous-change', title: 'Alt+↑', onclick: () => list.previous() }, '↑ Previous change'),
        h('button.small', { type: 'button', 'data-action': 'next-change', title: 'Alt+↓', onclick: () => list.next() }, '↓ Next change'),
        h('span.muted', {}, 'Click a path to scroll both documents to it.'),
      )
    : null;
  diffView.list = list;
  results.show(
    ticket,
    answer.equal ? status('ok', 'The documents are equal as JSON.') : status('warn', counts),
    matchingNotes(answer.arrays),
    navigation,
    list?.element ?? '',
    outputs(),
  );
}

// Which sides still hold the built-in sample: a file diffed against it means nothing.
const isSample = { a: true, b: true };

function loadInto(side, text, file) {
  texts[side] = text;
  isSample[side] = false;
  if (file?.name) names[side] = file.name;
  mergeRequested = false;
  results.changed();
  kept.changed();
  mount();
  const other = side === 'a' ? 'b' : 'a';
  if (isSample[other]) {
    results.show(results.ticket(), status('warn', `Document ${side.toUpperCase()} is open; the other side is still the sample. Open ${other.toUpperCase()}… to compare them.`));
    return;
  }
  run();
}

/** Puts `files` ({a, b, nameA, nameB}) on screen and diffs them. */
function showFiles(files) {
  texts = { a: files.a ?? '', b: files.b ?? '' };
  names = { a: files.nameA ?? 'a.json', b: files.nameB ?? 'b.json' };
  isSample.a = isSample.b = false;
  mergeRequested = false;
  results.changed();
  mount();
  run();
}

/**
 * Another view's "show me the diff": opens `files` ({a, b, nameA, nameB}) in
 * this view, in place of what it held. Before the view's first visit they
 * are kept as its files, which its set-up then opens like any kept ones.
 */
export function openDiff(files) {
  if (kept) {
    showFiles(files);
    kept.keepNow();
  } else if (keep('diff', files)) {
    // Not kept (storage off or full): the set-up opens them itself.
    handed = files;
  }
  location.hash = '#diff';
}
export function setUpDiffView() {
  const root = document.getElementById('diff-root');
  rerun = debounce(run, 300);
  host = h('div.merge-host');
  // Both documents and their names; a file opened here is kept like a pasted one, within the limit.
  kept = keeper('diff', { files: () => ({ a: texts.a, b: texts.b, nameA: names.a, nameB: names.b }), apply: showFiles });
  results = resultArea(h('div.diff-results', { 'aria-live': 'polite' }));
  keysInput = h('input', { type: 'text', placeholder: '/tools=name', size: 18, title: 'Match array elements by key: POINTER=FIELD, comma-separated', onchange: () => ((options.arrayKeys = listOf(keysInput.value)), results.changed(), run()) });
  const ignore = h('input', { type: 'text', placeholder: '/*/status', size: 16, title: 'Ignore these paths (* matches one step), comma-separated', onchange: () => ((options.ignore = listOf(ignore.value)), results.changed(), run()) });
  const filePicker = (side) => {
    const [button, input] = openFileButton(`diff-load-${side}`, `Open ${side.toUpperCase()}…`, '.json,application/json', (text, file) => loadInto(side, text, file));
    // Stale at once, while the file is still being read.
    input.addEventListener('change', () => input.files.length && results.changed());
    return [button, input];
  };
  root.append(
    h(
      'div.toolbar',
      {},
      select('View', [['side', 'side by side'], ['inline', 'inline']], { value: mode, onChange: (value) => ((mode = value), mount()) }).element,
      checkbox('Collapse unchanged', { title: 'Fold the unchanged lines of the merge view', onChange: (value) => ((collapse = value), mount()) }).element,
      h('label', {}, 'Array keys ', keysInput),
      h('label', {}, 'Ignore ', ignore),
      checkbox('No default keys', { title: 'Do not match array elements by name/id on their own', onChange: (v) => ((options.noDefaultKeys = v), results.changed(), run()) }).element,
      filePicker('a'),
      filePicker('b'),
      h('button.primary', { type: 'button', onclick: run, title: 'Ctrl+Enter' }, 'Diff'),
    ),
    kept.element,
    host,
    results.element,
  );
  root.addEventListener('keydown', (event) => {
    if (!event.altKey || !diffView.list) return;
    if (event.key === 'ArrowDown') diffView.list.next();
    else if (event.key === 'ArrowUp') diffView.list.previous();
    else return;
    event.preventDefault();
  });
  mount();
  // Restored files are diffed as they are applied; else the samples are.
  kept.start().then(() => (handed ? showFiles(handed) : isSample.a && isSample.b && run()));
}

export const diffView = { run: () => run(), list: null };
