// The JSON tree's scanner (www/src/jsonscan.js) on generated documents: for
// any valid JSON, with any spacing and escapes, it finds every value at its
// exact place, members in the order written and duplicates kept. Plain Node,
// no browser: the scanner is a pure function.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describe, nodeAt, scanJson } from '../../www/src/jsonscan.js';

/** A small seeded generator (mulberry32), so a failure is reproducible from its seed. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPACE = ['', ' ', '\n  ', '\t', '\r\n'];
const STRINGS = ['', 'a', 'a"b', 'back\\slash\\', 'é ☃ 😀', '\u0000\u001f', '/~', '__proto__', '2', 'ends with \\"'];
const SCALARS = ['0', '-1.5e+10', '12345678901234567890', 'true', 'false', 'null', '1E-7'];

/** A document as text, and the same document as the scan should see it: [kind, ...] trees. */
function generate(next, depth) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const space = () => pick(SPACE);
  const choice = depth > 4 ? next() * 0.5 : next();
  if (choice < 0.25) {
    const raw = pick(SCALARS);
    return { text: raw, model: ['scalar', raw] };
  }
  if (choice < 0.5) {
    const value = pick(STRINGS);
    // Sometimes with every character escaped as \uXXXX.
    const escaped = () => `"${value.split('').map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`;
    const raw = next() < 0.3 ? escaped() : JSON.stringify(value);
    return { text: raw, model: ['scalar', raw] };
  }
  const object = choice < 0.75;
  const count = Math.floor(next() * 5);
  const parts = [];
  const model = [object ? 'object' : 'array'];
  for (let index = 0; index < count; index++) {
    const child = generate(next, depth + 1);
    const key = pick(STRINGS);
    parts.push(object ? `${space()}${JSON.stringify(key)}${space()}:${space()}${child.text}${space()}` : `${space()}${child.text}${space()}`);
    model.push(object ? [key, child.model] : child.model);
  }
  const [open, close] = object ? ['{', '}'] : ['[', ']'];
  return { text: `${open}${parts.join(',') || space()}${close}`, model };
}

/** What the scan found, in the model's shape: scalars as their text, members as [key, value]. */
function seen(text, node) {
  if (!node.kind) return ['scalar', text.slice(node.from, node.to)];
  return [node.kind, ...node.items.map((child, index) => (node.kind === 'object' ? [node.keys[index], seen(text, child)] : seen(text, child)))];
}

test('every value of 2,000 generated documents is found at its place, in order, duplicates kept', () => {
  for (let seed = 1; seed <= 2000; seed++) {
    const { text, model } = generate(random(seed), 0);
    const padded = `${SPACE[seed % SPACE.length]}${text}${SPACE[(seed + 1) % SPACE.length]}`;
    const root = scanJson(padded);
    assert.deepEqual(seen(padded, root), model, `seed ${seed}: ${padded}`);
    // Every container's text is the container, from its bracket to its bracket.
    assert.equal(padded.slice(root.from, root.to), text, `seed ${seed}`);
  }
});

test('text that is not JSON is refused with the parser message', () => {
  for (const bad of ['', '{', '{"a":1,}', '[1 2]', "{'a':1}", '{"a":1}{']) assert.throws(() => scanJson(bad), SyntaxError, bad);
});

test('a node describes itself: strings decoded and cut at 300 characters, never mid-escape', () => {
  const long = `${'a'.repeat(298)}\\u00e9${'b'.repeat(50)}`;
  const text = `{"s":"${long}","n":-0.0,"o":{"k":[]},"t":true}`;
  const root = scanJson(text);
  const [s, n, o, t] = root.items.map((node) => describe(text, node));
  assert.equal(s.kind, 'string');
  assert.ok(s.cut);
  assert.equal(s.text, 'a'.repeat(298));
  assert.deepEqual({ kind: n.kind, text: n.text }, { kind: 'number', text: '-0.0' });
  assert.deepEqual({ kind: o.kind, size: o.size }, { kind: 'object', size: 1 });
  assert.equal(t.kind, 'boolean');
  assert.equal(describe(text, nodeAt(root, [2, 0])).kind, 'array');
});

test('a document nested 100,000 deep is scanned without overflowing the stack', () => {
  const depth = 100_000;
  const text = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const root = scanJson(text);
  assert.equal(root.to, text.length);
  assert.equal(nodeAt(root, Array(depth - 1).fill(0)).items.length, 0);
});
