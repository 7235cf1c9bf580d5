// The JSON tree viewer's model, built in the worker: the document's values
// with their places in the text, members in the order written, duplicate
// keys kept, numbers as their own text (JSON.parse would reorder
// integer-like keys, drop duplicates and round 2^53 + 1). The text is first
// parsed by JSON.parse, so only valid JSON gets here and the scan can trust
// its structure.

/**
 * A node: {from, to} (UTF-16 offsets of the value in `text`), and for an
 * object or array `kind` ('object' | 'array'), `items` (child nodes) and, for
 * an object, `keys` (the decoded member names, beside `items`).
 */
export function scanJson(text) {
  JSON.parse(text);
  let at = 0;
  const skipSpace = () => {
    while (at < text.length && text.charCodeAt(at) <= 32) at++;
  };
  const skipString = () => {
    // `at` is on the opening quote; a quote ends the string unless an odd run of backslashes precedes it.
    for (let end = text.indexOf('"', at + 1); ; end = text.indexOf('"', end + 1)) {
      let backslashes = 0;
      while (text[end - 1 - backslashes] === '\\') backslashes++;
      if (backslashes % 2 === 0) return (at = end + 1);
    }
  };
  // Iterative, with an explicit stack: a document nested 100,000 deep is valid JSON too.
  const root = { from: 0, to: 0 };
  const stack = [];
  let node = root;
  for (;;) {
    skipSpace();
    node.from = at;
    const char = text[at];
    if (char === '{' || char === '[') {
      at++;
      node.kind = char === '{' ? 'object' : 'array';
      node.items = [];
      if (node.kind === 'object') node.keys = [];
      skipSpace();
      if (text[at] === '}' || text[at] === ']') {
        node.to = ++at;
      } else {
        stack.push(node);
        node = openChild(node);
        continue;
      }
    } else if (char === '"') {
      node.to = skipString();
    } else {
      while (at < text.length && !',]} \t\n\r'.includes(text[at])) at++;
      node.to = at;
    }
    // Close every container this value ends, then start the next sibling.
    for (;;) {
      const parent = stack.at(-1);
      if (!parent) return root;
      skipSpace();
      if (text[at++] === ',') {
        node = openChild(parent);
        break;
      }
      parent.to = at;
      node = stack.pop();
    }
  }

  function openChild(parent) {
    if (parent.kind === 'object') {
      skipSpace();
      const keyFrom = at;
      parent.keys.push(JSON.parse(text.slice(keyFrom, skipString())));
      skipSpace();
      at++; // the colon
    }
    const child = { from: at, to: at };
    parent.items.push(child);
    return child;
  }
}

/** The node `path` (child indexes from the root) leads to. */
export function nodeAt(root, path) {
  let node = root;
  for (const index of path) node = node.items[index];
  return node;
}

const CUT = 300;

/** What the page draws for one node: its kind, size or text (cut at 300 characters), its place. */
export function describe(text, node) {
  if (node.kind) return { kind: node.kind, size: node.items.length, from: node.from, to: node.to };
  const raw = text.slice(node.from, Math.min(node.to, node.from + CUT + 2));
  const cut = node.to - node.from > CUT + 2;
  const first = text[node.from];
  const kind = first === '"' ? 'string' : first === 't' || first === 'f' ? 'boolean' : first === 'n' ? 'null' : 'number';
  // A string is shown decoded; a cut one is decoded up to a whole escape.
  const shown = kind !== 'string' ? raw : cut ? JSON.parse(`${raw.replace(/\\[^"]{0,5}$|\\$/, '')}"`) : JSON.parse(raw);
  return { kind, text: shown, cut, from: node.from, to: node.to };
}
