// How the page packs a batch of documents and cuts it for its workers
// (www/src/batch.js): the core splits the joined string at the texts' UTF-16
// lengths, and the merged reply offsets each slice's failures by its start, so
// both must hold for any texts. Plain Node, no browser: pure functions.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { packBatch, sliceBatch } from '../../www/src/batch.js';

/** A small seeded generator (mulberry32), so a failure is reproducible from its seed. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ASCII, two- and three-byte characters, a surrogate pair and a lone surrogate.
const PIECES = ['{}', '[1, 2]', '"é"', '"€"', '"😀"', '"\ud800"', ' ', '{"name": "a-b"}'];

function texts(next, count) {
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * 6) }, () => PIECES[Math.floor(next() * PIECES.length)]).join(''));
}

test('a packed batch is the texts joined and their UTF-16 lengths', () => {
  const given = ['{}', '"😀"', '', '"\ud800"', '"é"'];
  const { joined, lengths } = packBatch(given);
  assert.equal(joined, given.join(''));
  assert.deepEqual([...lengths], [2, 4, 0, 3, 3]);
  assert.ok(lengths instanceof Uint32Array, 'a Uint32Array, transferred to the worker');
});

test('slices are contiguous, cover the batch in order, and share it about evenly', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const next = random(seed);
    const batch = texts(next, Math.floor(next() * 40));
    const count = 1 + Math.floor(next() * 5);
    const slices = sliceBatch(batch, count);
    const where = `seed ${seed}, ${batch.length} texts, ${count} workers`;
    assert.ok(slices.length >= 1 && slices.length <= count, where);
    assert.deepEqual(slices.flatMap((slice) => slice.texts), batch, where);
    let start = 0;
    for (const slice of slices) {
      assert.equal(slice.start, start, where);
      if (batch.length) assert.ok(slice.texts.length > 0, `an empty slice: ${where}`);
      start += slice.texts.length;
    }
    // Each slice is at most an even share plus the one text that crossed the mark.
    const total = batch.reduce((sum, text) => sum + text.length, 0);
    const longest = Math.max(0, ...batch.map((text) => text.length));
    for (const slice of slices) {
      const size = slice.texts.reduce((sum, text) => sum + text.length, 0);
      assert.ok(size <= Math.ceil(total / count) + longest, `${size} units in one slice: ${where}`);
    }
  }
});

test('an empty batch is one empty slice; one text is never split', () => {
  assert.deepEqual(sliceBatch([], 3), [{ start: 0, texts: [] }]);
  assert.deepEqual(sliceBatch(['{"a": 1}'], 4), [{ start: 0, texts: ['{"a": 1}'] }]);
  assert.deepEqual(
    sliceBatch(['aa', 'bb', 'cc', 'dd'], 2).map((slice) => slice.start),
    [0, 2],
  );
});
