// The Format view: pretty-print (2, 4 spaces or tabs), minify, sort keys,
// JSONC accepted on request; a parse error is shown at its line:column.

import { lane } from '../client.js';
import { byteToCharOffset, createEditor } from '../editor.js';
import { treeToggle } from '../jsontree.js';
import { keeper } from '../keep.js';
import { callWithProgress, checkbox, copyButton, debounce, downloadButton, h, openFileButton, parsedOr, resultArea, select, status } from '../util.js';

// This view's jobs run on its own worker: they never wait behind another view's.
const core = lane('format');

const SAMPLE = '{"name":"my-plugin","version":"0.1.0","keywords":["agents","plugins"],"author":{"name":"Ada"}}\n';

let input;
let output;
const options = { indent: 2, minify: false, sortKeys: false, jsonc: false };
let statusLine;
let outputPane;
/** The Result's tree view toggle, and the text it shows (kept: reading a 5 MB editor back costs a frame). */
let resultTree;
let resultText = '';

/** The Result pane shows the output of the input on screen, or nothing. */
function clearOutput() {
  output.text = resultText = '';
  outputPane.dataset.empty = 'true';
  resultTree.refresh();
}

function inputChanged() {
  statusLine.changed();
  outputPane.dataset.stale = 'true';
}

async function run() {
  const ticket = statusLine.ticket();
  const answer = await callWithProgress(core, 'Formatting', 'format_json', input.text, JSON.stringify(options));
  if (ticket !== statusLine.ticket()) return;
  delete outputPane.dataset.stale;
  if (!answer) {
    clearOutput();
    statusLine.cancelled(ticket);
    return;
  }
  if (answer.ok) {
    output.text = resultText = answer.text;
    delete outputPane.dataset.empty;
    resultTree.refresh();
    // A member given twice stays twice in the result, where readers keep only one: said, as Check says it.
    const twice = answer.duplicates.slice(0, 100).map(({ pointer, start, end }) => ({ pointer, from: byteToCharOffset(input.text, start), to: byteToCharOffset(input.text, end) }));
    const message = (pointer) => `${pointer} is given twice in one object; the result keeps both, and most readers use the later value`;
    input.mark(twice.map(({ pointer, from, to }) => ({ from, to, severity: 'warning', message: message(pointer) })));
    const done = options.minify ? 'Minified' : 'Formatted';
    statusLine.show(
      ticket,
      twice.length
        ? status('warn', `${done}. ${answer.duplicates.length > 1 ? `${answer.duplicates.length} members are given twice, each marked; ` : ''}${message(twice[0].pointer)}.`, () => input.reveal(twice[0].from, twice[0].to))
        : status('ok', `${done}.`),
    );
    return;
  }
  clearOutput();
  const { line, column, offset, jsoncAccepts } = answer.error;
  // The core's message names no option (`JsonParseError::jsonc_accepts`): this page's is the checkbox.
  const message = jsoncAccepts ? `${answer.error.message}; “Allow comments (JSONC)” accepts it` : answer.error.message;
  const at = offset !== undefined ? byteToCharOffset(input.text, offset) : input.offsetAt(line, column);
  input.mark([{ from: at, to: at + 1, severity: 'error', message }]);
  statusLine.show(ticket, status('bad', `Parse error at ${line}:${column}: ${message}. No result until the input parses.`, () => input.reveal(at, at + 1)));
}

export function setUpFormatView() {
  const root = document.getElementById('format-root');
  const rerun = debounce(run, 250);
  const set = (key) => (value) => {
    options[key] = value;
    inputChanged();
    kept.changed();
    run();
  };
  statusLine = resultArea(h('div#format-status', { 'aria-live': 'polite' }));
  const indent = select('Indent', [['2', '2 spaces'], ['4', '4 spaces'], ['tab', 'tabs']], { value: '2', onChange: (v) => set('indent')(v === 'tab' ? 'tab' : Number(v)) });
  const flags = { minify: checkbox('Minify', { onChange: set('minify') }), sortKeys: checkbox('Sort keys', { onChange: set('sortKeys') }), jsonc: checkbox('Allow comments (JSONC)', { onChange: set('jsonc') }) };
  // The input and the options it is formatted with.
  const kept = keeper('format', {
    files: () => ({ input: input.text, options: JSON.stringify(options) }),
    apply: (files) => {
      const saved = parsedOr(files.options, {});
      for (const key of Object.keys(options)) if (Object.hasOwn(saved, key)) options[key] = saved[key];
      indent.input.value = String(options.indent);
      for (const [key, box] of Object.entries(flags)) box.input.checked = Boolean(options[key]);
      input.text = files.input ?? '';
    },
  });
  const inputHost = h('div.editor');
  const outputHost = h('div.editor');
  outputPane = h('div.pane#format-output', {}, h('span.muted', {}, 'Result'), outputHost);
  resultTree = treeToggle(outputHost, { core, label: 'Result', text: () => resultText, reveal: (from, to) => output.reveal(from, to, false) });
  root.append(
    h(
      'div.toolbar',
      {},
      indent.element,
      ...Object.values(flags).map((box) => box.element),
      h('button.primary', { type: 'button', onclick: run, title: 'Ctrl+Enter' }, 'Format'),
      ...openFileButton('format-open', 'Open…', '.json,.jsonc,application/json', (text) => (input.text = text)),
      copyButton('Copy result', () => output.text, 'Result copied'),
      resultTree.button,
      downloadButton('Download', 'formatted.json', () => output.text),
    ),
    kept.element,
    statusLine.element,
    h('div.tool-grid', {}, h('div.pane', {}, h('span.muted', {}, 'Input'), inputHost), outputPane),
  );
  const onInput = () => (inputChanged(), kept.changed(), rerun());
  input = createEditor(inputHost, { doc: SAMPLE, label: 'JSON to format', hint: 'Paste JSON here', onChange: onInput });
  output = createEditor(outputHost, { readOnly: true, label: 'Formatted JSON' });
  kept.start().then(run);
}

export const formatView = { run: () => run() };
