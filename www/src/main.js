// The page's entry: the router (one view per #hash), keyboard shortcuts, the
// cancel button, and the lazy set-up of each view on first visit.

import { coreMode } from './client.js';
import { loadRules, openRule, setUpRulesView } from './rules.js';
import { cancelJobs } from './util.js';
import { checkView, setUpCheckView } from './views/check.js';
import { diffView, setUpDiffView } from './views/diff.js';
import { formatView, setUpFormatView } from './views/format.js';
import { schemaView, setUpSchemaView } from './views/schema.js';
import { setUpSnapshotView, snapshotView } from './views/snapshot.js';

// Each view: set up once on first visit; `run` is its Ctrl+Enter action.
const VIEWS = {
  check: { setUp: setUpCheckView, actions: checkView },
  snapshot: { setUp: setUpSnapshotView, actions: snapshotView },
  format: { setUp: setUpFormatView, actions: formatView },
  schema: { setUp: setUpSchemaView, actions: schemaView },
  diff: { setUp: setUpDiffView, actions: diffView },
  rules: { setUp: setUpRulesView },
};

const ready = new Set();
let active = null;

function route() {
  const [name, detail] = location.hash.replace(/^#/, '').split('/');
  const view = VIEWS[name] ? name : 'check';
  for (const section of document.querySelectorAll('.view')) section.hidden = section.id !== `view-${view}`;
  for (const tab of document.querySelectorAll('.tabs a')) {
    if (tab.dataset.view === view) tab.setAttribute('aria-current', 'page');
    else tab.removeAttribute('aria-current');
  }
  if (!ready.has(view)) {
    ready.add(view);
    VIEWS[view].setUp();
  }
  active = view;
  document.title = `apcheck · ${view[0].toUpperCase()}${view.slice(1)}`;
  if (view === 'rules') openRule(detail ? decodeURIComponent(detail) : null);
}

function onKey(event) {
  const mod = event.ctrlKey || event.metaKey;
  if (event.key === 'Escape' && !document.getElementById('progress').hidden) {
    event.preventDefault();
    cancelJobs();
  } else if (event.altKey && /^[1-6]$/.test(event.key)) {
    event.preventDefault();
    const tab = document.querySelectorAll('.tabs a')[Number(event.key) - 1];
    location.hash = tab.getAttribute('href');
    tab.focus();
  } else if (mod && event.key === 'Enter') {
    event.preventDefault();
    VIEWS[active]?.actions?.run?.();
  } else if (mod && event.key.toLowerCase() === 'o' && active === 'check') {
    event.preventDefault();
    checkView.pick();
  } else if (event.key === '?' && !isTyping(event.target)) {
    event.preventDefault();
    document.getElementById('shortcuts').showModal();
  }
}

function isTyping(target) {
  return target.closest?.('input, textarea, select, .cm-editor') !== null;
}

async function start() {
  document.documentElement.dataset.core = coreMode;
  // A file dropped outside a drop zone would make the browser open it: nothing leaves the page that way either.
  for (const type of ['dragover', 'drop']) window.addEventListener(type, (event) => event.preventDefault());
  document.getElementById('progress-cancel').addEventListener('click', cancelJobs);
  document.getElementById('shortcuts-button').addEventListener('click', () => document.getElementById('shortcuts').showModal());
  document.getElementById('shortcuts-close').addEventListener('click', () => document.getElementById('shortcuts').close());
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', route);
  // The registry: the page's first worker reads it unasked while the first view is set up.
  const rules = loadRules();
  route();
  await rules;
  document.documentElement.dataset.ready = 'true';
  if (active === 'rules') route();
  // Served over HTTP(S), the page keeps its build for offline use (www/src/sw.js);
  // under file:// (dist/apcheck.html) it is one file already. Without one
  // (refused, or a private window) the page works as before, online. Only once
  // the page is ready: installing fetches every file of the build, and on a
  // first visit that would share the network with the worker's own download.
  if (location.protocol !== 'file:') navigator.serviceWorker?.register('sw.js').catch(() => {});
}

// Inline in dist/apcheck.html (where `defer` does not apply): wait for the body.
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
