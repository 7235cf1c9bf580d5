// The keyboard of an ARIA tree (the WAI-ARIA tree view pattern), shared by the
// file tree and the JSON tree: one item is in the tab order (roving tabindex),
// Up/Down move through the visible items, Right opens a closed branch or steps
// into an open one, Left closes an open branch or steps out to its parent,
// Home/End jump to the ends, Enter and Space activate the item.
//
// Items are `[role=treeitem]` elements; a branch has `aria-expanded` and its
// children in a `[role=group]` inside it, hidden while it is closed.

const visibleItems = (tree) => [...tree.querySelectorAll('[role=treeitem]')].filter((item) => !item.parentElement.closest('[role=group][hidden]'));

/** Puts `item` alone in the tab order, and focuses it when `focus`. */
export function makeCurrent(tree, item, focus = false) {
  for (const other of tree.querySelectorAll('[role=treeitem][tabindex="0"]')) other.tabIndex = -1;
  item.tabIndex = 0;
  if (focus) item.focus();
}

/**
 * Wires the keys and clicks of `tree` (a `[role=tree]` element).
 * `toggle(item, open)` opens or closes a branch; `activate(item)` is Enter, Space or a click.
 */
export function treeKeys(tree, { toggle, activate }) {
  tree.addEventListener('click', (event) => {
    const item = event.target.closest('[role=treeitem]');
    if (!item || event.target.closest('button')) return;
    makeCurrent(tree, item, true);
    if (item.hasAttribute('aria-expanded') && event.target.closest('.twisty')) toggle(item, item.getAttribute('aria-expanded') !== 'true');
    else activate(item);
  });
  tree.addEventListener('keydown', (event) => {
    const item = event.target.closest('[role=treeitem]');
    if (!item || event.target !== item) return;
    const items = visibleItems(tree);
    const at = items.indexOf(item);
    const open = item.getAttribute('aria-expanded');
    const parent = item.parentElement.closest('[role=treeitem]');
    const moves = {
      ArrowDown: () => items[at + 1],
      ArrowUp: () => items[at - 1],
      Home: () => items[0],
      End: () => items.at(-1),
      ArrowRight: () => (open === 'false' ? (toggle(item, true), item) : open === 'true' ? items[at + 1] : item),
      ArrowLeft: () => (open === 'true' ? (toggle(item, false), item) : parent),
      Enter: () => (activate(item), item),
      ' ': () => (activate(item), item),
    };
    if (!moves[event.key]) return;
    event.preventDefault();
    const next = moves[event.key]();
    // Activating may have rebuilt the tree: only a still-attached item takes the focus.
    if (next?.isConnected) makeCurrent(tree, next, true);
  });
}
