// The file tree of a dropped, picked or zipped package: every directory and
// file as the check read it, each file with its findings counted, a click (or
// Enter) opens it read-only. A collection's plugin roots are marked. Folders
// are drawn when first opened, so a monorepo of thousands of files costs
// nothing until it is looked at.

import { makeCurrent, treeKeys } from './treenav.js';
import { h, plural } from './util.js';

// Up to this many entries the whole tree starts open; above it, the first level only.
const OPEN_ALL = 300;

/** Folders and files from entry paths (a picked folder lists no directories: they are implied). */
function nest(entries) {
  const top = { dirs: new Map(), files: [], path: '' };
  const dirAt = (path) => {
    let dir = top;
    for (const step of path ? path.split('/') : []) {
      const path = dir.path ? `${dir.path}/${step}` : step;
      if (!dir.dirs.has(step)) dir.dirs.set(step, { dirs: new Map(), files: [], path, name: step });
      dir = dir.dirs.get(step);
    }
    return dir;
  };
  for (const entry of entries) {
    const slash = entry.path.lastIndexOf('/');
    if (entry.kind === 'dir') dirAt(entry.path);
    else dirAt(slash < 0 ? '' : entry.path.slice(0, slash)).files.push({ ...entry, name: entry.path.slice(slash + 1) });
  }
  return top;
}

function countBadges(count) {
  if (!count) return null;
  return ['error', 'warning', 'info']
    .filter((severity) => count[severity])
    .map((severity) => h(`span.count.${severity}`, { title: plural(count[severity], severity) }, String(count[severity])));
}

/**
 * `entries`: [{path, kind: 'file'|'dir'|'symlink', target?}], paths relative to
 * the folder given; `findings`: [{file, severity}] with the same paths;
 * `roots`: the plugin roots' directories ('' for the folder itself);
 * `onOpen(path)` opens a file.
 */
export function fileTree(name, entries, { findings = [], roots = [], onOpen }) {
  const counts = new Map();
  for (const { file, severity } of findings) {
    if (!file) continue;
    // A folder counts the findings of everything below it.
    for (let path = file; ; path = path.slice(0, path.lastIndexOf('/'))) {
      const count = counts.get(path) ?? {};
      count[severity] = (count[severity] ?? 0) + 1;
      counts.set(path, count);
      if (!path.includes('/')) break;
    }
  }
  const rootSet = new Set(roots);
  const openAll = entries.length <= OPEN_ALL;

  const fileItem = (file, level) => {
    const link = file.kind === 'symlink';
    return h(
      'li',
      { role: 'treeitem', 'aria-level': level, 'aria-selected': 'false', tabindex: -1, dataset: { path: file.path, kind: file.kind } },
      h('span.row', {}, h('span.twisty', { 'aria-hidden': 'true' }), h('span.name', {}, file.name), link ? h('span.muted', {}, ` → ${file.target}`) : null, countBadges(counts.get(file.path))),
    );
  };
  const dirItem = (dir, level) => {
    const item = h(
      'li',
      { role: 'treeitem', 'aria-level': level, 'aria-expanded': 'false', tabindex: -1, dataset: { path: dir.path, kind: 'dir' } },
      h('span.row', {}, h('span.twisty', { 'aria-hidden': 'true' }), h('span.name', {}, `${dir.name}/`), rootSet.has(dir.path) ? h('span.tag', {}, 'plugin root') : null, countBadges(counts.get(dir.path))),
    );
    item.folder = dir;
    if (openAll) toggle(item, true);
    return item;
  };
  const children = (dir, level) => [
    ...[...dir.dirs.values()].sort((a, b) => a.name.localeCompare(b.name)).map((child) => dirItem(child, level)),
    ...dir.files.sort((a, b) => a.name.localeCompare(b.name)).map((file) => fileItem(file, level)),
  ];
  function toggle(item, open) {
    if (!item.folder) return;
    item.setAttribute('aria-expanded', String(open));
    let group = item.querySelector(':scope > [role=group]');
    if (open && !group) item.append((group = h('ul', { role: 'group' }, children(item.folder, Number(item.getAttribute('aria-level')) + 1))));
    if (group) group.hidden = !open;
  }

  const top = nest(entries);
  const tree = h('ul.tree', { role: 'tree', 'aria-label': `Files of ${name}` }, children(top, 1));
  const first = tree.querySelector('[role=treeitem]');
  if (first) first.tabIndex = 0;
  treeKeys(tree, {
    toggle,
    activate: (item) => {
      if (item.dataset.kind === 'dir') toggle(item, item.getAttribute('aria-expanded') !== 'true');
      else onOpen(item.dataset.path);
    },
  });
  const fileCount = entries.filter((entry) => entry.kind !== 'dir').length;
  // A tree with no items is not a tree (ARIA): an empty folder gets the sentence alone.
  const head = entries.length ? `${name}: ${plural(fileCount, 'file')} · open one to see it read-only, its findings marked` : `${name}: no files were read`;
  return {
    element: h('div.filetree', {}, h('p.muted.filetree-head', {}, head), entries.length ? tree : null),
    /** Marks `path` as the file on screen, opening the folders above it. */
    select(path) {
      for (const item of tree.querySelectorAll('[aria-selected="true"]')) item.setAttribute('aria-selected', 'false');
      let dir = tree;
      const steps = path.split('/');
      for (let index = 1; index < steps.length; index++) {
        const item = [...dir.querySelectorAll(':scope > [role=treeitem], :scope > [role=group] > [role=treeitem]')].find((candidate) => candidate.dataset.path === steps.slice(0, index).join('/'));
        if (!item) return;
        toggle(item, true);
        dir = item;
      }
      const item = [...dir.querySelectorAll(':scope > [role=treeitem], :scope > [role=group] > [role=treeitem]')].find((candidate) => candidate.dataset.path === path);
      if (!item) return;
      item.setAttribute('aria-selected', 'true');
      makeCurrent(tree, item);
      item.scrollIntoView({ block: 'nearest' });
    },
  };
}
