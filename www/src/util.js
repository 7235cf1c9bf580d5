// Small DOM helpers shared by the views: element building, downloads, copying,
// a toast, and the progress bar that long jobs drive.

import { visible } from './visible.js';

/** Attributes a reader sees as text: escaped as text children are. */
const SHOWN_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'alt']);

/**
 * `h('div.class#id', {attr: value, onclick: fn}, ...children)`. Text children
 * are escaped by the DOM, and their invisible and reordering characters by
 * `visible`, as are the attributes a reader sees (`title`, …).
 */
export function h(tag, attributes = {}, ...children) {
  const [name, ...parts] = tag.split(/(?=[.#])/);
  const element = document.createElement(name);
  for (const part of parts) {
    if (part.startsWith('.')) element.classList.add(part.slice(1));
    else element.id = part.slice(1);
  }
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (SHOWN_ATTRIBUTES.has(key) && typeof value === 'string') element.setAttribute(key, visible(value));
    else element.setAttribute(key, value === true ? '' : value);
  }
  // One append per child: spreading tens of thousands of children into one call overflows the stack.
  for (const child of children.flat(Infinity)) {
    if (typeof child === 'string') element.append(visible(child));
    else if (child !== null && child !== undefined && child !== false) element.append(child);
  }
  if (name === 'table' && element.classList.contains('components')) labelCells(element);
  return element;
}

/** Labels each cell with its column's header: narrow screens show a component table's rows as labelled blocks. */
function labelCells(table) {
  const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
  for (const row of table.querySelectorAll('tbody tr')) {
    [...row.children].forEach((cell, index) => {
      if (headers[index]) cell.dataset.label = headers[index];
    });
  }
}

export function download(filename, text, type = 'application/json') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h('a', { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  toast(`Saved ${filename}`);
}

export async function copy(text, what = 'Copied') {
  try {
    await navigator.clipboard.writeText(text);
    toast(`${what} to the clipboard`);
  } catch {
    // Clipboard access can be refused (file://, no focus): fall back to a selection copy.
    const area = h('textarea', { class: 'visually-hidden' });
    area.value = text;
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    toast(copied ? `${what} to the clipboard` : 'Copy was refused by the browser');
  }
}

let toastTimer;
export function toast(message) {
  const element = document.getElementById('toast');
  element.textContent = visible(message);
  element.classList.add('shown');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => element.classList.remove('shown'), 2200);
}

/** A copy button for the text `getText()` returns at click time. */
// `getText` may return a promise (reports are rendered in the worker when asked
// for); if it fails, the toast says why.
async function withText(getText, use) {
  let text;
  try {
    text = await getText();
  } catch (error) {
    toast(error instanceof Error ? error.message : String(error));
    return;
  }
  use(text);
}

export function copyButton(label, getText, what) {
  return h('button', { type: 'button', class: 'small', onclick: () => withText(getText, (text) => copy(text, what)) }, label);
}

export function downloadButton(label, filename, getText, type) {
  return h('button', { type: 'button', class: 'small', onclick: () => withText(getText, (text) => download(filename, text, type)) }, label);
}

// The running jobs, one bar for all: it shows the visible view's newest job,
// else the newest job of any view (named), and Esc or Cancel ends the one shown.
const jobs = [];
const shownView = () => document.querySelector('.view:not([hidden])')?.id.replace('view-', '');

function shownJob() {
  const due = jobs.filter((job) => job.due);
  return due.findLast((job) => job.core.name === shownView()) ?? due.at(-1);
}

function paintProgress() {
  const bar = document.getElementById('progress');
  const job = shownJob();
  bar.hidden = !job;
  if (!job) return;
  const meter = document.getElementById('progress-bar');
  const seconds = Math.floor((performance.now() - job.started) / 1000);
  const where = job.core.name === shownView() ? '' : `${job.core.name[0].toUpperCase()}${job.core.name.slice(1)} view: `;
  document.getElementById('progress-text').textContent = `${where}${job.text}${seconds ? ` (${seconds} s)` : ''}`;
  if (job.value === undefined) meter.removeAttribute('value');
  else meter.value = job.value;
}
addEventListener('hashchange', () => setTimeout(paintProgress));

/** Shows the progress bar while `job` runs on `core`'s lane; Esc or Cancel ends it. Resolves like `job`. */
export async function withProgress(core, label, job) {
  const entry = { core, text: label, started: performance.now(), due: false };
  jobs.push(entry);
  // Quick jobs finish before the bar would flash; a long one counts its seconds.
  const showTimer = setTimeout(() => ((entry.due = true), paintProgress()), 150);
  const ticker = setInterval(paintProgress, 1000);
  const update = ({ phase, done, total }) => {
    entry.text = phase === 'checking' ? `${label}: checking ${total} entries…` : `${label}: ${phase} ${done}${total ? ` of ${total}` : ''}…`;
    if (total) entry.value = done / total;
    paintProgress();
  };
  try {
    return await job(update);
  } finally {
    clearTimeout(showTimer);
    clearInterval(ticker);
    jobs.splice(jobs.indexOf(entry), 1);
    paintProgress();
  }
}

/** Ends the job the progress bar shows (every job of its view). */
export function cancelJobs() {
  const job = shownJob();
  if (!job) return;
  job.core.cancel();
  toast('Cancelled');
}

export function isCancelled(error) {
  return error?.name === 'CancelledError';
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** `text` parsed as JSON, or `fallback` when it does not parse (or is absent). */
export function parsedOr(text, fallback) {
  try {
    return JSON.parse(text) ?? fallback;
  } catch {
    return fallback;
  }
}

/** Runs `fn` once calls stop for `ms`; `.cancel()` drops a call still waiting. */
export function debounce(fn, ms) {
  let timer;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

/** A labelled checkbox; `onChange(checked)`. */
export function checkbox(label, { checked = false, title, onChange } = {}) {
  const input = h('input', { type: 'checkbox', checked, onchange: () => onChange?.(input.checked) });
  return { element: h('label', { title }, input, label), input };
}

/** A labelled select of `[value, text]` options; `onChange(value)`. */
export function select(label, options, { value, onChange } = {}) {
  const element = h('select', { onchange: () => onChange?.(element.value) }, options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));
  return { element: h('label', {}, label, ' ', element), input: element };
}

/** A status line: tone 'ok' | 'bad' | 'warn'; `onClick` makes it a button (to jump to an error). */
export function status(tone, text, onClick) {
  return onClick ? h(`button.status.${tone}`, { type: 'button', onclick: onClick }, text) : h(`p.status.${tone}`, {}, text);
}

/**
 * Calls a core export on `core`'s lane with the progress bar (shown only if it takes a while)
 * and Esc to cancel. Resolves with the answer, or `null` when cancelled.
 */
export async function callWithProgress(core, label, name, ...params) {
  try {
    return await withProgress(core, label, () => core.call(name, ...params));
  } catch (error) {
    if (isCancelled(error)) return null;
    throw error;
  }
}

/**
 * A list that renders its first `first` items and the rest on request, so
 * tens of thousands of results never hold up the page.
 */
export function longList(tag, items, render, { first = 200, what = 'more' } = {}) {
  const list = h(tag, {}, items.slice(0, first).map(render));
  if (items.length <= first) return list;
  const more = h(
    'button',
    {
      type: 'button',
      onclick: () => {
        list.append(...items.slice(first).map(render));
        more.remove();
      },
    },
    `Show ${items.length - first} ${what}`,
  );
  return h('div', {}, list, more);
}

/** An "Open…" button for one local file, read as text; `onText(text, file)`. Nothing is uploaded. */
export function openFileButton(id, label, accept, onText) {
  const input = h('input', {
    type: 'file',
    accept,
    id,
    class: 'visually-hidden',
    onchange: async () => {
      const [file] = input.files;
      if (file) onText(await file.text(), file);
      input.value = '';
    },
  });
  return [h('label.button.small', { for: id }, label), input];
}

/**
 * An "Open…" button for several local files at once, read as text; `onFiles([{name, text}])`.
 * With `folder`, it picks a folder and takes its files named `.json`, each named by its path
 * inside the folder (a folder of packages holds many plugin.json). Nothing is uploaded.
 */
export function openFilesButton(id, label, accept, onFiles, folder = false) {
  const input = h('input', {
    type: 'file',
    accept,
    id,
    multiple: true,
    webkitdirectory: folder,
    class: 'visually-hidden',
    onchange: async () => {
      const picked = [...input.files].filter((file) => !folder || /\.json$/i.test(file.name));
      input.value = '';
      const name = (file) => (folder ? file.webkitRelativePath.slice(file.webkitRelativePath.indexOf('/') + 1) : file.name);
      // A folder lists in no set order: by path, as a reader scans it.
      const named = picked.map((file) => ({ name: name(file), file })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (named.length) onFiles(await Promise.all(named.map(async ({ name, file }) => ({ name, text: await file.text() }))));
    },
  });
  return [h('label.button.small', { for: id }, label), input];
}

const STALE_NOTE = 'Out of date: the inputs changed since this result was made. Re-running…';

/**
 * A result element that never shows a result as current once its inputs
 * changed. Every input change calls `changed()`, which marks the shown result
 * stale at once (before any re-run answers); a run takes a `ticket()` when it
 * starts, and `show(ticket, …)` puts its result up only if no input changed
 * meanwhile (a newer run is then on its way).
 */
export function resultArea(element) {
  let version = 0;
  const area = {
    element,
    changed(note = STALE_NOTE) {
      version++;
      if (element.dataset.stale === 'true' || element.childElementCount === 0) return;
      element.dataset.stale = 'true';
      element.prepend(h('p.status.warn.stale-note', { role: 'status' }, note));
    },
    ticket: () => version,
    /** Shows `children` (null ones are left out) as the current result; false (nothing shown) when the inputs changed since `ticket`. */
    show(ticket, ...children) {
      if (ticket !== version) return false;
      delete element.dataset.stale;
      // A part with nothing to say is null: as text it would read "null".
      element.replaceChildren(...children.filter((child) => child != null));
      return true;
    },
    /** The run that `ticket` started was cancelled: nothing describes the inputs now. */
    cancelled(ticket) {
      return area.show(ticket, status('warn', 'Cancelled. Run again (Ctrl+Enter) for a result.'));
    },
  };
  return area;
}
