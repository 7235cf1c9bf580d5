// scripts/figures.mjs: how benchmark rows merge into the figures record, and
// how the record renders as the book's table.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { merge, render } from '../../scripts/figures.mjs';

const record = {
  rows: [
    { id: 'a', row: 'first', figure: '1 ms', goal: '', by: 'cargo bench --bench x', measured: 'old' },
    { id: 'b', row: 'second', figure: '2 ms', goal: '< 5 ms', by: 'cargo bench --bench x', measured: 'old' },
    { id: 'c', row: 'third', figure: '3 ms', goal: '', by: 'node scripts/bench-page.mjs', measured: 'old' },
  ],
};

test('a measured row replaces its id in place and is stamped; the others keep their stamp', () => {
  const merged = merge(record, [{ id: 'b', row: 'second', figure: '1.5 ms', goal: '< 5 ms', by: 'cargo bench --bench x' }], 'today at abc');
  assert.deepEqual(merged.rows.map((row) => [row.id, row.figure, row.measured]), [['a', '1 ms', 'old'], ['b', '1.5 ms', 'today at abc'], ['c', '3 ms', 'old']]);
  assert.equal(record.rows[1].figure, '2 ms', 'the record given is not changed');
});

test('a new id goes after the last row of its runner, or at the end for a new runner', () => {
  const merged = merge(
    record,
    [
      { id: 'd', row: 'fourth', figure: '4 ms', by: 'cargo bench --bench x' },
      { id: 'e', row: 'fifth', figure: '5 ms', by: 'scripts/bench-peers.sh' },
    ],
    'today',
  );
  assert.deepEqual(merged.rows.map((row) => row.id), ['a', 'b', 'd', 'c', 'e']);
  assert.equal(merged.rows[2].goal, '', 'a row without a goal gets an empty one');
});

test('the last row of an id wins when a runner measured it twice', () => {
  const merged = merge(
    record,
    [
      { id: 'a', row: 'first', figure: '9 ms', by: 'cargo bench --bench x' },
      { id: 'a', row: 'first', figure: '8 ms', by: 'cargo bench --bench x' },
    ],
    'today',
  );
  assert.equal(merged.rows[0].figure, '8 ms');
});

test('a row without its id, text, figure or runner is refused', () => {
  assert.throws(() => merge(record, [{ id: 'x', row: 'r', figure: '' , by: 'b' }], 'today'), /without its figure/);
  assert.throws(() => merge(record, [{ row: 'r', figure: 'f', by: 'b' }], 'today'), /without its id/);
});

test('the table has one line per row, and a pipe or a line break in a figure cannot break it', () => {
  const page = render({ rows: [{ id: 'p', row: 'a | b', figure: 'x\ny', goal: '', by: 'cargo bench --bench x', measured: 'today' }] });
  const tableLines = page.split('\n').filter((line) => line.startsWith('|'));
  assert.deepEqual(tableLines.slice(2), ['| a \\| b | x y |  | `cargo bench --bench x` | today |']);
  assert.match(page, /^# Figures\n/);
});
