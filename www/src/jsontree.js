// The JSON tree view beside a read-only editor, JSONVue style: objects and
// arrays fold, a node's JSON Pointer (RFC 6901) and jq path are shown with
// copy buttons when it is picked, and picking it selects its text in the
// editor. The document is scanned in the worker (jsonscan.js) and each node's
// children are fetched when it is opened, 200 at a time, so a 5 MB document
// never holds up the page. Every value is text: a URL gets a copy button,
// never a link (a package's URLs are not ours to open).

import { makeCurrent, treeKeys } from './treenav.js';
import { copyButton, h, plural } from './util.js';
import { visible } from './visible.js';

const PAGE = 200;
const JQ_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const JQ_KEYWORDS = new Set('and or not if then elif else end as def reduce foreach try catch label import include __loc__'.split(' '));
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\/\S+$|^mailto:\S+$/i;

/** The RFC 6901 pointer of a node: its keys and indexes from the root. */
export const pointerOf = (keys) => keys.map((key) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** The jq path of a node: `.name`, `["a b"]` for other keys, `[0]` for indexes; `.` for the root. */
export function jqPathOf(keys) {
  const steps = keys.map((key) => (typeof key === 'number' ? `[${key}]` : JQ_IDENTIFIER.test(key) && !JQ_KEYWORDS.has(key) ? `.${key}` : `[${JSON.stringify(key)}]`));
  const path = steps.join('');
  return path === '' ? '.' : path.startsWith('[') ? `.${path}` : path;
}

function valueText(node) {
  if (node.kind === 'object') return node.size ? `{…} ${plural(node.size, 'key')}` : '{}';
  if (node.kind === 'array') return node.size ? `[…] ${plural(node.size, 'item')}` : '[]';
  const text = node.kind === 'string' ? JSON.stringify(node.text).slice(1, -1) : node.text;
  return node.kind === 'string' ? `"${text}${node.cut ? '…' : ''}"` : text;
}

/**
 * A tree view for the text `update(text)` gives it, read on `core`'s lane. `label` names it;
 * `reveal(from, to)` selects a node's text in the editor beside it.
 */
export function jsonTree({ core, label, reveal }) {
  let current = null;
  let version = 0;
  const status = h('p.muted.jt-status', { role: 'status' });
  const body = h('div.jt-body');
  const pathBar = h('div.jt-path', { hidden: true });
  const element = h('div.json-tree', { role: 'region', 'aria-label': `${label}: tree view` }, status, body, pathBar);

  const item = (node, keys, path, level) => {
    const container = node.kind === 'object' || node.kind === 'array';
    const key = keys.length === 0 ? '(root)' : typeof keys.at(-1) === 'number' ? String(keys.at(-1)) : JSON.stringify(keys.at(-1));
    const url = node.kind === 'string' && !node.cut && URL_LIKE.test(node.text);
    const li = h(
      'li',
      { role: 'treeitem', 'aria-level': level, 'aria-selected': 'false', tabindex: -1, 'aria-expanded': container && node.size ? 'false' : null },
      h(
        'span.row',
        {},
        h('span.twisty', { 'aria-hidden': 'true' }),
        h('span.jt-key', {}, key),
        h(`span.jt-value.${node.kind}`, {}, valueText(node)),
        url ? copyButton('Copy URL', () => node.text, 'URL copied') : null,
      ),
    );
    Object.assign(li, { node, keys, path });
    if (url) li.querySelector('button').classList.add('small');
    return li;
  };

  async function loadChildren(parent, group, start) {
    const { id } = current;
    const { total, children } = await core.request('treeChildren', { id, path: parent.path, start, end: start + PAGE });
    if (current?.id !== id) return;
    const level = Number(parent.getAttribute('aria-level')) + 1;
    group.append(...children.map((child, offset) => item(child, [...parent.keys, child.key ?? start + offset], [...parent.path, start + offset], level)));
    if (start + PAGE < total) {
      const more = h('li.jt-more', { role: 'treeitem', 'aria-level': level, tabindex: -1 }, h('span.row', {}, `Show ${Math.min(PAGE, total - start - PAGE)} more of ${total - start - PAGE}`));
      more.loadMore = () => loadChildren(parent, group, start + PAGE).then(() => more.remove());
      group.append(more);
    }
  }

  function toggle(li, open) {
    if (!li.hasAttribute('aria-expanded')) return;
    li.setAttribute('aria-expanded', String(open));
    let group = li.querySelector(':scope > [role=group]');
    if (open && !group) {
      li.append((group = h('ul', { role: 'group' })));
      loadChildren(li, group, 0).catch((error) => (status.textContent = visible(`The tree stopped: ${error.message}`)));
    }
    if (group) group.hidden = !open;
  }

  function pick(li) {
    if (li.loadMore) {
      const next = li.previousElementSibling;
      li.loadMore().then(() => next?.nextElementSibling && makeCurrent(tree(), next.nextElementSibling, true));
      return;
    }
    for (const other of element.querySelectorAll('[aria-selected="true"]')) other.setAttribute('aria-selected', 'false');
    li.setAttribute('aria-selected', 'true');
    const pointer = pointerOf(li.keys);
    const jq = jqPathOf(li.keys);
    pathBar.hidden = false;
    pathBar.replaceChildren(
      h('p', {}, 'JSON Pointer ', h('code.jt-pointer', {}, pointer === '' ? '"" (the whole document)' : pointer), ' ', copyButton('Copy pointer', () => pointer, 'JSON Pointer copied')),
      h('p', {}, 'jq path ', h('code.jt-jq', {}, jq), ' ', copyButton('Copy jq path', () => jq, 'jq path copied')),
    );
    for (const button of pathBar.querySelectorAll('button')) button.classList.add('small');
    reveal?.(li.node.from, li.node.to);
  }

  const tree = () => body.querySelector('[role=tree]');

  return {
    element,
    /** Shows the tree of `text` (nothing for an empty text); a newer call wins over one still loading. */
    async update(text) {
      const mine = ++version;
      pathBar.hidden = true;
      if (!text.trim()) {
        current = null;
        body.replaceChildren();
        status.textContent = 'No JSON to show.';
        return;
      }
      status.textContent = 'Reading the tree…';
      let answer;
      try {
        answer = await core.request('treeOpen', { text });
      } catch (error) {
        answer = { ok: false, message: error.message };
      }
      if (mine !== version) return;
      if (!answer.ok) {
        current = null;
        body.replaceChildren();
        status.textContent = visible(`No tree: this is not plain JSON (${answer.message}).`);
        return;
      }
      current = answer;
      status.textContent = 'Pick a node for its JSON Pointer and jq path. Arrow keys move and fold.';
      const root = item(answer.root, [], [], 1);
      root.tabIndex = 0;
      const list = h('ul.tree', { role: 'tree', 'aria-label': `${label}: tree` }, root);
      treeKeys(list, {
        toggle,
        activate: (li) => {
          pick(li);
          if (li.hasAttribute('aria-expanded')) toggle(li, li.getAttribute('aria-expanded') !== 'true');
        },
      });
      body.replaceChildren(list);
      toggle(root, true);
    },
  };
}

/**
 * A "Tree view" toggle for an editor: `host` (the element the editor is, or
 * will be, created in) gets the tree beside it while the toggle is on.
 * `core` is the view's lane; `text()` gives what the editor shows; call `refresh()` when that changes.
 */
export function treeToggle(host, { core, label, text, reveal }) {
  const view = jsonTree({ core, label, reveal });
  view.element.hidden = true;
  const viewer = h('div.viewer');
  host.replaceWith(viewer);
  viewer.append(host, view.element);
  const button = h('button.small.tree-toggle', { type: 'button', 'aria-pressed': 'false', title: 'A collapsible tree of the JSON beside the text' }, 'Tree view');
  const shown = () => button.getAttribute('aria-pressed') === 'true';
  button.addEventListener('click', () => {
    button.setAttribute('aria-pressed', String(!shown()));
    view.element.hidden = !shown();
    viewer.classList.toggle('with-tree', shown());
    if (shown()) view.update(text());
  });
  return {
    button,
    refresh: () => (shown() ? view.update(text()) : undefined),
  };
}
