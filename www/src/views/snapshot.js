// The Snapshot view: a reviewer's tasks on capability snapshots.
// - Lint: one snapshot checked on its own (and against its package's files, when dropped).
// - Changes: two snapshots → every change with the SemVer level it demands, held
//   against the version bump made (§10.2).
// - Drift: a snapshot and the plugin folder it claims to describe → which side to fix.
// - Build: a plugin folder (and tools/list captures) → the expected snapshot, to download.
// - Call: tools/call arguments checked against a tool picked from the snapshot.

import { callForm } from '../callform.js';
import { lane } from '../client.js';
import { byteToCharOffset, createEditor } from '../editor.js';
import { entriesFromDrop, entriesFromPicker } from '../files.js';
import { jsonTree } from '../jsontree.js';
import { keeper, packageFiles, packageFrom } from '../keep.js';
import { diagnosticsList } from '../report.js';
import { callWithProgress, copyButton, debounce, downloadButton, h, isCancelled, openFileButton, plural, resultArea, status, withProgress } from '../util.js';
import { visible } from '../visible.js';
import { openDiff } from './diff.js';

// This view's jobs run on its own worker: they never wait behind another view's.
const core = lane('snapshot');

const TASKS = [
  ['lint', 'Lint', 'One snapshot: does it follow the snapshot schema and its rules (with the package, if dropped)'],
  ['changes', 'Changes', 'Two snapshots: what changed and the version bump it needs'],
  ['drift', 'Drift', 'A snapshot and its plugin folder: which side is stale'],
  ['build', 'Build', 'A plugin folder: the snapshot a client would hold'],
  ['call', 'Tool call', 'Arguments checked against a tool of the snapshot'],
];

// The sample pair on a first visit: the change a reviewer meets most (a tool
// renamed, an input newly required, a tool added) under a minor bump that
// does not cover it. Built here rather than written out: a third of the bytes.
const sampleSchema = (required, properties) => ({ type: 'object', required, properties });
const sampleSnapshot = (version, tools) =>
  `${JSON.stringify(
    {
      $schema: 'urn:apcheck:schema:snapshot:1',
      plugin: { name: 'issue-tracker', version, spec: '1.0.0' },
      skills: [],
      mcpServers: [{ id: 'tracker', type: 'stdio', status: 'connected' }],
      tools: tools.map(([name, inputSchema]) => ({ name, server: 'tracker', inputSchema })),
    },
    null,
    2,
  )}\n`;
const SEARCH = sampleSchema(['query'], { query: { type: 'string' } });
const ISSUE = { id: { type: 'integer' }, repo: { type: 'string' } };
const SAMPLE_OLD = sampleSnapshot('1.4.0', [
  ['search_issues', SEARCH],
  ['get_issue', sampleSchema(['id'], ISSUE)],
]);
const SAMPLE_NEW = sampleSnapshot('1.5.0', [
  ['find_issues', SEARCH],
  ['get_issue', sampleSchema(['id', 'repo'], ISSUE)],
  ['close_issue', sampleSchema(['id'], { id: ISSUE.id })],
]);

let task = 'lint';
let oldEditor;
let newEditor;
let toolsEditor;
let argsEditor;
let toolPicker;
let serverInput;
let result;
let packageGiven = null;
const panes = {};
let packageLabel;
let form;
let kept;
/** The tool a restored link or reload names, picked once the snapshot lists it. */
let wantedTool = null;

// A snapshot of megabytes on one line (as minified ones are) would hold the
// page up in an editor, which wraps and measures that one line on every
// change. Such a text is held aside: the checks read it as it is, and the
// reviewer reads it as a tree (paged from its own worker), until "Edit the
// raw text" puts it in the editor, on request.
const HELD_CHARS = 256 * 1024;
const HELD_LINE_CHARS = 20_000;

function isBigOneLine(text) {
  if (text.length < HELD_CHARS) return false;
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    if ((end < 0 ? text.length : end) - start > HELD_LINE_CHARS) return true;
    if (end < 0) return false;
    start = end + 1;
  }
  return false;
}

/** An editor in `host` (createEditor's `options`) that holds a big one-line text aside, shown as a tree. */
function holdingEditor(host, options) {
  const editor = createEditor(host, options);
  let held = null;
  const tree = jsonTree({ core: lane('snapshot-tree'), label: `${options.label} (read-only)` });
  const note = h('p.muted');
  const panel = h(
    'div.held',
    { hidden: true },
    note,
    h('button.small', { type: 'button', onclick: () => edit() }, 'Edit the raw text'),
    tree.element,
  );
  host.after(panel);
  function show(holding) {
    panel.hidden = !holding;
    host.hidden = holding;
  }
  function edit() {
    const text = held;
    held = null;
    show(false);
    editor.text = text;
    editor.view.focus();
  }
  return {
    get text() {
      return held ?? editor.text;
    },
    set text(value) {
      if (!isBigOneLine(value)) {
        held = null;
        show(false);
        editor.text = value;
        return;
      }
      held = value;
      note.textContent = `${(value.length / 1e6).toFixed(1)} MB on one line, shown read-only as a tree so that the page stays responsive; the checks read the text as it is. Findings are listed, not marked.`;
      show(true);
      editor.text = '';
      options.onChange?.(value);
      tree.update(value);
    },
    /** The text is held aside: nothing to mark (and no offsets worth computing). */
    get holding() {
      return held !== null;
    },
    mark: (markers) => held === null && editor.mark(markers),
    reveal: (from, to, focus) => held === null && editor.reveal(from, to, focus),
    offsetAt: (line, column) => (held === null ? editor.offsetAt(line, column) : 0),
  };
}

/** Reveals a finding in the editor holding the file it names. */
function opener(byFile) {
  return (diagnostic) => {
    const editor = byFile[diagnostic.file];
    if (!editor) return;
    const text = editor.text;
    const from = diagnostic.span ? byteToCharOffset(text, diagnostic.span.start) : editor.offsetAt(diagnostic.line ?? 1, diagnostic.column ?? 1);
    const to = diagnostic.span ? byteToCharOffset(text, diagnostic.span.end) : from;
    editor.reveal(from, to);
  };
}

function markEditors(diagnostics, byFile) {
  for (const [file, editor] of Object.entries(byFile)) {
    if (editor.holding) continue;
    const text = editor.text;
    editor.mark(
      diagnostics
        .filter((d) => d.file === file && (d.span || d.line))
        .map((d) => {
          const from = d.span ? byteToCharOffset(text, d.span.start) : editor.offsetAt(d.line, d.column ?? 1);
          return { from, to: d.span ? byteToCharOffset(text, d.span.end) : from, severity: d.severity, message: `${d.code}: ${d.message}` };
        }),
    );
  }
}

function markdownActions(markdown, filename) {
  return h('div.row.actions', {}, copyButton('Copy Markdown', () => markdown, 'Report copied'), downloadButton('Markdown', filename, () => markdown, 'text/markdown'));
}

const LEVEL_TONE = { major: 'bad', minor: 'warn', patch: 'ok' };

// Where a change's subject sits in a snapshot, by the first word of its kind;
// `plugin-…` changes are of the plugin object itself.
const SUBJECTS = {
  tool: ['tools', (tool) => `${tool.server}/${tool.name}`],
  skill: ['skills', (skill) => skill.name],
  server: ['mcpServers', (server) => server.id],
};

/** The JSON of `subject` in snapshot `text`, pretty-printed; `null` when the snapshot has none. */
function subjectJson(text, kind, subject) {
  let snapshot;
  try {
    snapshot = JSON.parse(text);
  } catch {
    return 'null\n';
  }
  const [list, key] = SUBJECTS[kind.split('-')[0]] ?? [];
  const found = list ? (Array.isArray(snapshot?.[list]) ? snapshot[list].find((item) => key(item ?? {}) === subject) : undefined) : snapshot?.plugin;
  return `${JSON.stringify(found ?? null, null, 2)}\n`;
}

/** Opens the old and new JSON of a change's subject side by side in the Diff view. */
function diffOf(change) {
  // A renamed tool is named by its new name; the report's detail names the old one.
  const before = change.kind === 'tool-renamed' ? (change.detail.match(/^tool `(.+)` renamed to `/)?.[1] ?? change.subject) : change.subject;
  openDiff({
    a: subjectJson(oldEditor.text, change.kind, before),
    b: subjectJson(newEditor.text, change.kind, change.subject),
    nameA: `old/${before}.json`,
    nameB: `new/${change.subject}.json`,
  });
}

function bumpVerdict(report) {
  const { required, bump, old_version: from, new_version: to, bump_covers_changes: enough } = report;
  const versions = `${from ?? '?'} → ${to ?? '?'}`;
  if (enough === null) return status('bad', 'The snapshots could not be compared: see the findings.');
  if (!required) return status('ok', `No changes between the snapshots (${versions}).`);
  return status(enough ? 'ok' : 'bad', `The changes need a ${required.toUpperCase()} bump; the version went ${versions} (${bump ? `a ${bump} bump` : 'no SemVer bump'}): ${enough ? 'enough' : 'not enough'}.`);
}

function needSnapshots(show, ...editors) {
  if (editors.every((editor) => editor.text.trim())) return false;
  show(status('warn', editors.length === 2 ? 'Paste or open two snapshots: the old one and the new one.' : 'Paste or open a snapshot.'));
  return true;
}

async function runChanges(show) {
  if (needSnapshots(show, oldEditor, newEditor)) return;
  const answer = await callWithProgress(core, 'Comparing snapshots', 'snapshot_changes', 'old.snapshot.json', oldEditor.text, 'snapshot.json', newEditor.text);
  if (!answer) throw cancelledError();
  const { report, markdown } = answer;
  const byFile = { 'old.snapshot.json': oldEditor, 'snapshot.json': newEditor };
  markEditors(report.diagnostics, byFile);
  show(
    bumpVerdict(report),
    h('div.row.actions', {}, copyButton('Copy Markdown for a pull request', () => markdown, 'The verdict and the table as Markdown'), downloadButton('Markdown', 'snapshot-changes.md', () => markdown, 'text/markdown')),
    report.changes.length
      ? h(
          'table.components',
          {},
          h('thead', {}, h('tr', {}, ['level', 'change', 'subject', 'detail', h('span.visually-hidden', {}, 'open in Diff')].map((t) => h('th', { scope: 'col' }, t)))),
          h(
            'tbody',
            {},
            report.changes.map((change) =>
              h(
                'tr',
                {},
                h('td.word', { dataset: { label: 'level' } }, h(`span.state.${LEVEL_TONE[change.level] ?? 'none'}`, {}, change.level)),
                h('td.word', { dataset: { label: 'change' } }, h('code', {}, change.kind)),
                h('td.name', { dataset: { label: 'subject' } }, change.subject),
                h('td', { dataset: { label: 'detail' } }, change.detail),
                h('td.word', {}, h('button.small', { type: 'button', title: 'The old and new JSON side by side, in the Diff view', 'aria-label': `Diff ${change.subject}`, onclick: () => diffOf(change) }, 'Diff')),
              ),
            ),
          ),
        )
      : '',
    h('h2.findings-title', {}, `Findings (${report.diagnostics.length})`),
    diagnosticsList(report.diagnostics, opener(byFile)),
  );
}

function needPackage(show) {
  if (packageGiven) return false;
  show(status('warn', 'Drop or choose the plugin folder first.'));
  return true;
}

async function withPackage(action, extra) {
  return withProgress(core, `${action} ${packageGiven.root}`, (progress) => core.request('check', { ...packageGiven, action, root: packageGiven.root, ...extra }, progress));
}

async function runDrift(show) {
  if (needSnapshots(show, newEditor) || needPackage(show)) return;
  const { report, markdown } = await withPackage('drift', { snapshotName: 'snapshot.json', snapshotText: newEditor.text });
  const byFile = { 'snapshot.json': newEditor };
  markEditors(report.diagnostics, byFile);
  const side = { snapshot: 'rebuild the snapshot', package: 'fix the packaging files' };
  show(
    report.rows.length ? status('bad', `${plural(report.rows.length, 'difference')} between the snapshot and ${packageGiven.root}.`) : status('ok', `The snapshot matches ${packageGiven.root}.`),
    markdownActions(markdown, 'snapshot-drift.md'),
    report.rows.length
      ? h(
          'table.components',
          {},
          h('thead', {}, h('tr', {}, ['', 'subject', 'in the snapshot', 'in the package', 'fix'].map((t) => h('th', { scope: 'col' }, t)))),
          h(
            'tbody',
            {},
            report.rows.map((row) =>
              h('tr', {}, h('td', {}, h('a.code', { href: `#rules/${row.code}` }, row.code)), h('td', {}, row.subject), h('td', {}, row.snapshot ?? '— (absent)'), h('td', {}, row.package ?? '— (absent)'), h('td', {}, side[row.fix] ?? row.fix)),
            ),
          ),
        )
      : '',
    h('h2.findings-title', {}, `Findings (${report.diagnostics.length})`),
    diagnosticsList(report.diagnostics, opener(byFile)),
  );
}

async function runBuild(show) {
  if (needPackage(show)) return;
  const server = serverInput.value.trim();
  const tools = server && toolsEditor.text.trim() ? { [server]: toolsEditor.text } : {};
  const built = await withPackage('build', { tools });
  if (!built.ok) {
    show(status('bad', `No snapshot: ${built.error.message}`));
    return;
  }
  const { summary } = built;
  const fileName = `${summary.name}.snapshot.json`;
  show(
    status('ok', `Built the snapshot of ${summary.name} ${summary.version ?? ''}: ${plural(summary.skills, 'skill')}, ${plural(summary.mcpServers, 'server')}, ${plural(summary.tools, 'tool')}.`),
    h(
      'div.row.actions',
      {},
      downloadButton('Download snapshot', fileName, () => built.text),
      copyButton('Copy', () => built.text, 'Snapshot copied'),
      h('button', { type: 'button', class: 'small', onclick: () => ((newEditor.text = built.text), pickTask('drift')) }, 'Use as the snapshot'),
    ),
    h('pre.block', { tabindex: '0', 'aria-label': 'The built snapshot' }, built.text),
  );
}

function toolsOf(text) {
  try {
    const snapshot = JSON.parse(text);
    return (snapshot.tools ?? []).map((tool) => `${tool.server}/${tool.name}`);
  } catch {
    return [];
  }
}

function refreshTools() {
  const names = toolsOf(newEditor.text);
  const chosen = names.includes(wantedTool) ? wantedTool : toolPicker.value;
  if (names.includes(wantedTool)) wantedTool = null;
  toolPicker.replaceChildren(...names.map((name) => h('option', { value: name, selected: name === chosen }, name)));
  if (names.length === 0) toolPicker.append(h('option', { value: '' }, '(no tools in the snapshot)'));
}

async function runCall(show) {
  if (needSnapshots(show, newEditor)) return form.setSchema(null, null);
  refreshTools();
  const answer = await callWithProgress(core, 'Checking the call', 'snapshot_call', 'snapshot.json', newEditor.text, toolPicker.value, 'arguments.json', argsEditor.text);
  if (!answer) throw cancelledError();
  const { report } = answer;
  const byFile = { 'snapshot.json': newEditor, 'arguments.json': argsEditor };
  const shown = show(
    report.valid ? status('ok', `The arguments are valid for ${report.tool}.`) : status('bad', `The arguments are not valid${report.tool ? ` for ${report.tool}` : ''}.`),
    diagnosticsList(report.diagnostics, opener(byFile)),
  );
  // An answer for inputs no longer on screen marks nothing: the newer run's will.
  if (!shown) return;
  markEditors(report.diagnostics, byFile);
  form.setSchema(answer.inputSchema, report.tool);
  form.showIssues(answer.issues);
}

async function runLint(show) {
  if (needSnapshots(show, newEditor)) return;
  const answer = packageGiven
    ? await withPackage('lint', { snapshotName: 'snapshot.json', snapshotText: newEditor.text })
    : await callWithProgress(core, 'Linting the snapshot', 'snapshot_lint', 'snapshot.json', newEditor.text);
  if (!answer) throw cancelledError();
  const byFile = { 'snapshot.json': newEditor };
  markEditors(answer.diagnostics, byFile);
  const errors = answer.diagnostics.filter((d) => d.severity === 'error').length;
  show(
    !answer.valid
      ? status('bad', 'This is not a usable snapshot.')
      : errors
        ? status('bad', `${plural(errors, 'error')} in the snapshot.`)
        : status('ok', `The snapshot is well formed${packageGiven ? ` and agrees with the files of ${packageGiven.root}` : ''}.`),
    diagnosticsList(answer.diagnostics, opener(byFile)),
  );
}

const RUN = { lint: runLint, changes: runChanges, drift: runDrift, build: runBuild, call: runCall };

function cancelledError() {
  const error = new Error('cancelled');
  error.name = 'CancelledError';
  return error;
}

async function run() {
  // One job per action: a run now stands for the re-run an edit scheduled
  // (an Open… sets the text, then runs), and a new run supersedes one still going.
  rerunSoon.cancel();
  if (core.busy()) {
    result.changed();
    core.cancel();
  }
  // The run's result shows only if no input changed since it started.
  const mine = result.ticket();
  try {
    await RUN[task]((...children) => result.show(mine, ...children));
  } catch (error) {
    if (isCancelled(error)) result.cancelled(mine);
    else result.show(mine, status('bad', `Failed: ${error.message}`));
  }
}

/** An input changed: the result on screen no longer describes it, at once; the re-run follows. */
let rerunSoon;
function inputChanged() {
  result.changed();
  form.checking();
  kept.changed();
  rerunSoon();
}

function pickTask(name) {
  task = name;
  for (const [id, pane] of Object.entries(panes)) pane.hidden = !pane.dataset.tasks.split(' ').includes(name);
  for (const button of document.querySelectorAll('#snapshot-root .segmented button')) button.setAttribute('aria-pressed', String(button.dataset.task === name));
  panes.Snapshot.querySelector('.pane-title').textContent = name === 'changes' ? 'New snapshot' : 'Snapshot';
  if (name === 'call') refreshTools();
  result.changed();
  kept.changed();
  run();
}

function showPackage(given) {
  packageGiven = given;
  packageLabel.textContent = visible(`Package: ${given.root} (${given.entries ? plural(given.entries.filter((entry) => entry.kind === 'file').length, 'file') : 'zip'})`);
}

async function takePackage(given) {
  showPackage(given);
  result.changed();
  kept.keepNow();
  if (task === 'changes' || task === 'call') pickTask('drift');
  else run();
}

function editorPane(title, tasks, editorHost, ...extra) {
  const pane = h('div.pane.snapshot-pane', { dataset: { tasks } }, h('div.row', {}, h('strong.pane-title', {}, title), ...extra), editorHost);
  panes[title] = pane;
  return pane;
}

/** The tool-call arguments: the form built from the tool's inputSchema, over the same arguments as JSON. */
function argumentsPane(argsHost) {
  const pane = h(
    'div.pane.snapshot-pane.arguments-pane',
    { dataset: { tasks: 'call' } },
    h('div.row', {}, h('strong.pane-title', {}, 'Arguments'), h('label', {}, 'tool ', toolPicker)),
    form.element,
    h('span.muted', {}, 'The same arguments as JSON:'),
    argsHost,
  );
  panes.Arguments = pane;
  return pane;
}

export function setUpSnapshotView() {
  const root = document.getElementById('snapshot-root');
  result = resultArea(h('div.pane.result-pane#snapshot-result', { 'aria-live': 'polite' }));
  rerunSoon = debounce(run, 400);
  packageLabel = h('span.muted', {}, 'No package yet.');
  const drop = h(
    'div.dropzone',
    { tabindex: '0', id: 'snapshot-drop' },
    h('p', {}, h('strong', {}, 'Drop the plugin folder'), ' (or a .zip) here — or one or two snapshot .json files'),
    packageLabel,
    h('div.row', {}, ...fileButtonFolder()),
  );
  // The drop zone takes focus: Enter or Space opens the folder picker, as in the Check view.
  drop.addEventListener('keydown', (event) => {
    if (event.target !== drop || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    document.getElementById('snapshot-pick-folder').click();
  });
  drop.addEventListener('dragover', (event) => (event.preventDefault(), drop.classList.add('over')));
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    const snapshots = droppedSnapshots(event.dataTransfer);
    if (snapshots.length) return takeSnapshots(snapshots);
    takePackage(await entriesFromDrop(event.dataTransfer));
  });
  const dropPane = h('div.pane', { dataset: { tasks: 'lint changes drift build' } }, drop);
  panes.drop = dropPane;

  const oldHost = h('div.editor');
  const newHost = h('div.editor');
  const toolsHost = h('div.editor.short');
  const argsHost = h('div.editor.short');
  serverInput = h('input', { type: 'text', placeholder: 'server id', size: 14, 'aria-label': 'Server id of the tools/list capture' });
  toolPicker = h('select', { 'aria-label': 'Tool', onchange: () => (result.changed(), kept.changed(), run()) });
  form = callForm({ onArguments: (text) => (argsEditor.text = text) });
  // The documents, the task and tool they are for, and the package given (its
  // files: the verdict a link shows must be the one on screen).
  kept = keeper('snapshot', {
    files: async () => ({
      task,
      tool: toolPicker.value,
      old: oldEditor.text,
      snapshot: newEditor.text,
      capture: toolsEditor.text,
      server: serverInput.value,
      arguments: argsEditor.text,
      ...(packageGiven ? await packageFiles(packageGiven) : {}),
    }),
    apply: (files) => {
      const given = packageFrom(files);
      if (given) showPackage(given);
      else packageGiven = null;
      if (!given) packageLabel.textContent = 'No package yet.';
      oldEditor.text = files.old ?? '';
      newEditor.text = files.snapshot ?? '';
      toolsEditor.text = files.capture ?? '';
      argsEditor.text = files.arguments ?? '{}\n';
      serverInput.value = files.server ?? '';
      wantedTool = files.tool ?? null;
      pickTask(RUN[files.task] ? files.task : 'lint');
    },
  });

  root.append(
    h(
      'div.toolbar',
      {},
      h(
        'div.segmented',
        { role: 'group', 'aria-label': 'Snapshot task' },
        TASKS.map(([name, label, title]) => h('button', { type: 'button', title, dataset: { task: name }, onclick: () => pickTask(name) }, label)),
      ),
      h('button.primary', { type: 'button', onclick: run, title: 'Ctrl+Enter' }, 'Run'),
    ),
    h(
      'p.muted.intro',
      {},
      'A capability snapshot is the JSON record of what a plugin offers an agent: its skills, MCP servers and every tool with its input schema. Kept next to the plugin, it shows a reviewer what a release changes, and which version bump that needs (§10.2). The editors hold a sample pair (a tool renamed, an input newly required, a tool added, under a minor bump): ',
      h('em', {}, 'Changes'),
      ' compares them.',
    ),
    kept.element,
    h(
      'div.tool-grid',
      {},
      h(
        'div.pane.snapshot-inputs',
        {},
        dropPane,
        editorPane('Old snapshot', 'changes', oldHost, ...openFileButton('snapshot-open-old', 'Open…', '.json', (text) => ((oldEditor.text = text), dropSample(), run()))),
        editorPane('Snapshot', 'lint changes drift call', newHost, ...openFileButton('snapshot-open-new', 'Open…', '.json', (text) => ((newEditor.text = text), dropSample(), run()))),
        editorPane('tools/list capture (optional)', 'build', toolsHost, h('label', {}, 'for ', serverInput)),
        argumentsPane(argsHost),
      ),
      result.element,
    ),
  );
  const onChange = inputChanged;
  oldEditor = holdingEditor(oldHost, { doc: SAMPLE_OLD, label: 'Old snapshot', hint: 'Paste or open the old snapshot', onChange });
  newEditor = holdingEditor(newHost, { doc: SAMPLE_NEW, label: 'Snapshot', hint: 'Paste or open a snapshot', onChange });
  toolsEditor = createEditor(toolsHost, { label: 'tools/list capture', hint: 'A tools/list result for one server: {"tools": [...]}', onChange });
  argsEditor = createEditor(argsHost, { doc: '{}\n', label: 'tools/call arguments', onChange: (text) => (form.fromText(text), inputChanged()) });
  form.fromText(argsEditor.text);
  serverInput.addEventListener('input', inputChanged);
  pickTask('lint');
  kept.start();
}

/** A file was opened: the sample still in the other editor would only be compared with it, so it goes. */
function dropSample() {
  if (oldEditor.text === SAMPLE_OLD) oldEditor.text = '';
  if (newEditor.text === SAMPLE_NEW) newEditor.text = '';
}

/** Loose .json files dropped (not a folder): snapshots, sorted by name. */
function droppedSnapshots(dataTransfer) {
  const files = [...dataTransfer.files];
  const entries = [...dataTransfer.items].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
  if (files.length === 0 || files.length > 2 || entries.some((entry) => entry.isDirectory)) return [];
  if (!files.every((file) => /\.json$/i.test(file.name))) return [];
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

/** One snapshot goes to the Snapshot editor; two are compared, the first by name as the old one. */
async function takeSnapshots(files) {
  const texts = await Promise.all(files.map((file) => file.text()));
  if (texts.length === 2) {
    oldEditor.text = texts[0];
    newEditor.text = texts[1];
    pickTask('changes');
  } else {
    newEditor.text = texts[0];
    dropSample();
    run();
  }
}

/** The folder and zip pickers; an empty picked folder is still what was picked, and is taken as such. */
function fileButtonFolder() {
  const folder = h('input', { type: 'file', webkitdirectory: true, multiple: true, id: 'snapshot-pick-folder', class: 'visually-hidden' });
  const zip = h('input', { type: 'file', accept: '.zip,application/zip', id: 'snapshot-pick-zip', class: 'visually-hidden' });
  for (const input of [folder, zip]) {
    input.addEventListener('change', () => {
      const picked = entriesFromPicker(input.files);
      input.value = '';
      takePackage(picked);
    });
  }
  return [h('label.button', { for: 'snapshot-pick-folder' }, 'Choose folder…'), folder, h('label.button', { for: 'snapshot-pick-zip' }, 'Choose .zip…'), zip];
}

export const snapshotView = { run: () => run() };
