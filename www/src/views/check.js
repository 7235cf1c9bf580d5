// The Check view: a plugin folder dropped, picked or zipped — or plugin.json,
// mcp.json and a SKILL.md pasted — checked by the core exactly as a
// conformant client would load it, and shown hop by hop.

import { lane } from '../client.js';
import { byteToCharOffset, createEditor } from '../editor.js';
import { entriesFromDrop, entriesFromPicker, entriesFromTexts } from '../files.js';
import { fileTree } from '../filetree.js';
import { treeToggle } from '../jsontree.js';
import { renderFolder } from '../report.js';
import { keeper, packageFiles, packageFrom } from '../keep.js';
import { debounce, h, isCancelled, resultArea, toast, withProgress } from '../util.js';

// This view's jobs run on its own worker: they never wait behind another view's.
const core = lane('check');

const STARTER_MANIFEST = `{
  "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
  "name": "my-plugin",
  "version": "0.1.0",
  "description": "What this plugin gives an agent."
}
`;

// Pasted files, in tab order. A pasted SKILL.md goes where the core places it (skills/<its name>/).
const pasted = [
  { id: 'plugin', label: 'plugin.json', language: 'json', text: STARTER_MANIFEST },
  { id: 'mcp', label: 'mcp.json', language: 'json', text: '' },
  { id: 'skill', label: 'SKILL.md', language: 'markdown', text: '' },
];

let editor;
let current = pasted[0];
/**
 * The package given (a drop, a pick or a zip): `files` (path → entry with a
 * File, or for a zip only its path: the worker holds its bytes), the check's
 * `reportId`, the path `viewing` in the editor.
 */
let dropped = null;
/** The package's file tree, while one is on screen. */
let files = null;
/** The editor's JSON tree view toggle. */
let jsonView;
let lastReport = null;
/** The package on screen (a drop, a pick or a zip), re-checked by Check; null for the pasted files. */
let given = null;
let result;
let kept;

/** Where the pasted SKILL.md was placed for the last check: the directory the user typed, else the core's (`pasted_skill_path`: its `name`). */
let skillPath = 'skills/unnamed-skill/SKILL.md';
/** The directory input; `dataset.edited` once the user typed one, which then stays. */
let skillDir;

function pastedPath(file) {
  return file.id === 'skill' ? skillPath : file.label;
}

function pastedFiles() {
  return pasted.map((file) => ({ path: pastedPath(file), text: file.text }));
}

function renderTabs() {
  const tabs = document.getElementById('check-filetabs');
  const buttons = pasted.map((file) =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        'aria-selected': String(!dropped?.viewing && file === current),
        class: file.text ? 'has-text' : null,
        onclick: () => showPasted(file),
      },
      file.label,
    ),
  );
  if (dropped?.viewing) {
    buttons.push(h('button', { type: 'button', role: 'tab', 'aria-selected': 'true', title: 'A file of the dropped package (read-only)' }, `${dropped.viewing} (dropped)`));
  }
  // Rebuilding the tabs must not drop the keyboard focus that was on one of them.
  const hadFocus = tabs.contains(document.activeElement);
  for (const button of buttons) button.tabIndex = button.getAttribute('aria-selected') === 'true' ? 0 : -1;
  tabs.replaceChildren(...buttons);
  skillDir.parentElement.hidden = Boolean(dropped?.viewing) || current.id !== 'skill';
  if (hadFocus) buttons.find((button) => button.tabIndex === 0)?.focus();
}

/** Arrow keys move between the file tabs (the ARIA tabs pattern); Tab leaves them. */
function onTabKey(event) {
  if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
  const index = pasted.indexOf(current) + (event.key === 'ArrowRight' ? 1 : -1);
  event.preventDefault();
  showPasted(pasted[(index + pasted.length) % pasted.length]);
}

function showPasted(file) {
  if (dropped) dropped.viewing = null;
  current = file;
  editor.setReadOnly(false);
  editor.setLanguage(file.language);
  editor.text = file.text;
  renderTabs();
  markFile(pastedPath(file), file.text);
}

function markFile(path, text) {
  const diagnostics = (lastReport?.diagnostics ?? []).filter((d) => d.file === path);
  editor.mark(diagnostics.map((d) => ({ ...rangeOf(d, text), severity: d.severity === 'info' ? 'info' : d.severity, message: `${d.code}: ${d.message}` })));
}

function rangeOf(diagnostic, text) {
  if (diagnostic.span) return { from: byteToCharOffset(text, diagnostic.span.start), to: byteToCharOffset(text, diagnostic.span.end) };
  if (diagnostic.line) {
    const from = editor.offsetAt(diagnostic.line, diagnostic.column ?? 1);
    const to = diagnostic.end_line ? editor.offsetAt(diagnostic.end_line, diagnostic.end_column ?? 1) : from;
    return { from, to };
  }
  return { from: 0, to: 0 };
}

/** The text of a file of the package given: from its File, or from the worker for a zip. */
async function fileText(entry) {
  if (entry.file) return entry.file.text();
  // A package opened from a link or kept: its files came as text or bytes.
  if (entry.text !== undefined) return entry.text;
  if (entry.bytes) return new TextDecoder().decode(entry.bytes);
  return (await core.request('zipFile', { reportId: dropped.reportId, path: entry.path })).text;
}

/** Shows a file of the dropped package in the editor, read-only, with its findings marked. */
async function openFile(path) {
  const entry = dropped?.files.get(path);
  if (!entry || entry.kind === 'symlink') {
    toast(entry ? `${path} is a symlink to ${entry.target}: the check judged the link, there is no file to show` : `${path} is not a readable file of the package`);
    return null;
  }
  let text;
  try {
    text = await fileText(entry);
  } catch (error) {
    toast(`${path} cannot be shown: ${error.message}`);
    return null;
  }
  dropped.viewing = path;
  files?.select(path);
  editor.setReadOnly(true);
  editor.setLanguage(path.endsWith('.md') ? 'markdown' : path.endsWith('.json') ? 'json' : 'text');
  editor.text = text;
  renderTabs();
  markFile(path, text);
  return text;
}

async function openDiagnostic(diagnostic) {
  if (!diagnostic.file) return;
  let text;
  if (dropped) {
    text = await openFile(diagnostic.file);
    if (text === null) return;
  } else {
    const file = pasted.find((candidate) => pastedPath(candidate) === diagnostic.file);
    if (!file) return;
    if (file !== current) showPasted(file);
    text = file.text;
    markFile(diagnostic.file, text);
  }
  const { from, to } = rangeOf(diagnostic, text);
  editor.reveal(from, to);
}

/**
 * Applies a finding's fix (the core's edits, byte spans in the texts checked)
 * to the pasted files, one undoable editor transaction per file, and the edit
 * re-checks as typing does. `checked` maps each path to the text the check saw:
 * a file changed since then gets no edits (the re-check offers the fix anew).
 */
function applyFix(diagnostic, checked) {
  const byFile = new Map();
  for (const edit of diagnostic.fix.edits) byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit]);
  const targets = [...byFile.keys()].map((path) => [path, pasted.find((file) => pastedPath(file) === path)]);
  const stale = targets.find(([path, file]) => !file || file.text !== checked.get(path));
  if (stale) {
    toast(`${stale[0]} changed since this check: wait for the re-check, then apply the fix again`);
    return;
  }
  for (const [path, file] of targets) {
    if (file !== current || dropped?.viewing) showPasted(file);
    const changes = byFile.get(path).map((edit) => ({
      from: byteToCharOffset(file.text, edit.span.start),
      to: byteToCharOffset(file.text, edit.span.end),
      insert: edit.replacement,
    }));
    editor.apply(changes, 'input.fix');
  }
  toast(`Applied: ${diagnostic.fix.message}`);
}

async function runCheck(job, { source, label, checkedTexts }) {
  const ticket = result.ticket();
  try {
    const { folder, reportId, listing } = await withProgress(core, label, (progress) => core.request('check', job, progress));
    // Files only: a drop lists directories too, a picked folder does not, and the two must agree.
    const entryCount = job.entries?.filter((entry) => entry.kind === 'file').length;
    // Inputs changed meanwhile: a newer run is on its way, and its result wins.
    // Pasted files can take a fix; a dropped package is shown read-only.
    const onFix = checkedTexts ? (diagnostic) => applyFix(diagnostic, checkedTexts) : undefined;
    const view = renderFolder({ ...folder, reportId }, { root: job.root, source, entryCount, onOpen: openDiagnostic, onFix, fileBase: `apcheck-${job.root.replace(/[^\w.-]+/g, '_')}` });
    if (!result.show(ticket, view)) return;
    // Findings by their path in the folder given (a collection's roots lie below it).
    const prefix = (report) => (folder.collection ? `${report.root.slice(job.root.length + 1)}/` : '');
    lastReport = { diagnostics: folder.reports.flatMap((report) => report.diagnostics.map((d) => ({ ...d, file: d.file && prefix(report) + d.file }))) };
    if (dropped) showFiles(job, folder, reportId, listing);
    if (!dropped) markFile(pastedPath(current), current.text);
    // A dropped package: show its manifest with the findings marked, read-only.
    else if (dropped.files.has('plugin.json')) await openFile('plugin.json');
    // On a narrow screen the verdict lands far below the drop zone: bring it into view.
    if (dropped && view.getBoundingClientRect().top > innerHeight) view.scrollIntoView();
  } catch (error) {
    if (isCancelled(error)) result.cancelled(ticket);
    else result.show(ticket, h('p.error', {}, `The check failed: ${error.message}`));
  }
}

/**
 * The package's file tree: every entry read (a zip's from the worker, which
 * opened it), each file openable read-only; a collection's roots are marked.
 */
function showFiles(job, folder, reportId, listing) {
  const entries = listing ?? job.entries;
  dropped.files = new Map(entries.filter((entry) => entry.kind !== 'dir').map((entry) => [entry.path, entry]));
  dropped.reportId = reportId;
  const roots = folder.collection ? folder.reports.map((report) => report.root.slice(job.root.length + 1)) : [];
  files = fileTree(job.root, entries, { findings: lastReport.diagnostics, roots, onOpen: openFile });
  const pane = document.getElementById('check-files');
  pane.replaceChildren(files.element);
  pane.hidden = false;
}

/** No file tree: the pasted files are checked, or a new package is being read. */
function hideFiles() {
  files = null;
  const pane = document.getElementById('check-files');
  pane.hidden = true;
  pane.replaceChildren();
}

async function checkPasted() {
  hideFiles();
  dropped = null;
  if (given) kept.changed();
  given = null;
  lastReport = null;
  renderTabs();
  const skill = pasted.find((file) => file.id === 'skill');
  if (skill.text) {
    // A SKILL.md placed by its own name could never fail the name/directory rule: the user names the directory.
    const named = (await core.call('pasted_skill_path', skill.text)).path.split('/')[1];
    const typed = skillDir.value.trim();
    const usable = skillDir.dataset.edited && !/[/\\]|^\.{0,2}$/.test(typed);
    skillDir.setAttribute('aria-invalid', String(Boolean(skillDir.dataset.edited) && !usable));
    if (!skillDir.dataset.edited) skillDir.value = named;
    skillPath = `skills/${usable ? typed : named}/SKILL.md`;
  }
  const files = pastedFiles();
  const checkedTexts = new Map(files.map((file) => [file.path, file.text]));
  return runCheck({ root: 'pasted', entries: entriesFromTexts(files) }, { source: 'paste', label: 'Checking pasted files', checkedTexts });
}

async function checkGiven(package_, source) {
  given = package_;
  result.changed();
  // What is kept and shared is what is on screen: this package now, not the pasted files.
  kept.keepNow();
  lastReport = null;
  hideFiles();
  // The files are known once the check has read them (a zip is opened in the worker).
  dropped = { files: new Map(), viewing: null };
  renderTabs();
  // A zip's symlinks are read from the archive; a folder's are hidden by the browser.
  await runCheck(given, { source: given.zip ? 'zip' : source, label: `Checking ${given.root}` });
}

/** Whether a drop is a folder or a zip (a package), not a file to paste. */
function holdsPackage(dataTransfer) {
  return [...dataTransfer.items].some((item) => {
    const entry = item.webkitGetAsEntry?.();
    return entry?.isDirectory || /\.zip$/i.test(entry?.name ?? '');
  });
}

/** Check re-runs what is on screen: the package given, or the pasted files. */
function checkShown() {
  return given ? checkGiven(given, 'drop') : checkPasted();
}

export function setUpCheckView() {
  result = resultArea(document.getElementById('check-result'));
  const editorHost = document.getElementById('check-editor');
  jsonView = treeToggle(editorHost, { core, label: 'File', text: () => editor.text, reveal: (from, to) => editor.reveal(from, to, false) });
  document.getElementById('check-run').before(jsonView.button);
  const treeLater = debounce(() => jsonView.refresh(), 300);
  editor = createEditor(editorHost, {
    doc: current.text,
    language: current.language,
    label: 'Pasted file',
    hint: 'Paste plugin.json, mcp.json or a SKILL.md here',
    onChange: (text) => {
      treeLater();
      if (dropped?.viewing) return;
      current.text = text;
      kept.changed();
      result.changed();
      autoCheck();
    },
  });
  const autoCheck = debounce(checkPasted, 400);
  skillDir = document.getElementById('check-skill-dir-name');
  skillDir.addEventListener('input', () => {
    skillDir.dataset.edited = 'true';
    kept.changed();
    result.changed();
    autoCheck();
  });
  document.getElementById('check-filetabs').addEventListener('keydown', onTabKey);
  renderTabs();

  const zone = document.getElementById('check-drop');
  // The whole view takes a folder or zip drop, even over the editor (captured before it);
  // a plain file dropped on the editor is pasted into it, as editors do.
  const area = document.getElementById('view-check');
  area.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  area.addEventListener('dragleave', (event) => {
    if (!area.contains(event.relatedTarget)) zone.classList.remove('over');
  });
  area.addEventListener(
    'drop',
    async (event) => {
      zone.classList.remove('over');
      const overEditor = event.target.closest?.('.cm-editor');
      if (overEditor && !holdsPackage(event.dataTransfer)) return;
      event.preventDefault();
      event.stopPropagation();
      const given = await withProgress(core, 'Reading the drop', (progress) =>
        entriesFromDrop(event.dataTransfer, (count) => progress({ phase: 'listing', done: count })),
      );
      await checkGiven(given, 'drop');
    },
    { capture: true },
  );
  zone.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      document.getElementById('check-pick-folder').click();
    }
  });
  for (const id of ['check-pick-folder', 'check-pick-zip']) {
    const input = document.getElementById(id);
    input.addEventListener('change', async () => {
      // An empty folder (or one holding only symlinks, which a browser does not show) gives no files:
      // it is still what was picked, and is checked as such.
      const picked = entriesFromPicker(input.files);
      input.value = '';
      await checkGiven(picked, 'drop');
    });
  }
  document.getElementById('check-run').addEventListener('click', checkShown);
  kept = keeper('check', {
    // The package on screen, else the pasted files by id, as they are kept and shared.
    files: () => (given ? packageFiles(given) : { ...Object.fromEntries(pasted.map((file) => [file.id, file.text])), ...(skillDir.dataset.edited ? { skillDir: skillDir.value } : {}) }),
    apply: (files) => {
      const package_ = packageFrom(files);
      if (package_) return checkGiven(package_, 'drop');
      for (const file of pasted) file.text = files[file.id] ?? '';
      skillDir.value = files.skillDir ?? '';
      if (files.skillDir === undefined) delete skillDir.dataset.edited;
      else skillDir.dataset.edited = 'true';
      current = pasted.find((file) => file.text) ?? pasted[0];
      // The editor's change re-checks, as typing does.
      showPasted(current);
    },
  });
  document.getElementById('check-keep').replaceWith(kept.element);
  // One check at start: the kept or linked package's, else the pasted files' (not also the re-check their edit scheduled).
  kept.start().then(() => {
    autoCheck.cancel();
    if (!given) checkPasted();
  });
}

export const checkView = {
  run: () => checkShown(),
  pick: () => document.getElementById('check-pick-folder').click(),
};
