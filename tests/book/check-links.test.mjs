// scripts/check-links.mjs on a small built book and README made here: it
// passes when every relative link and #anchor resolves, and names each one
// that does not.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), '../../scripts/check-links.mjs');

/** A built book under `dir`/book with `pages` (path → HTML), and `readme` as `dir`/README.md. */
function site(pages, readme) {
  const dir = mkdtempSync(join(tmpdir(), 'check-links-'));
  for (const [path, html] of Object.entries(pages)) {
    mkdirSync(dirname(join(dir, 'book', path)), { recursive: true });
    writeFileSync(join(dir, 'book', path), html);
  }
  writeFileSync(join(dir, 'README.md'), readme);
  return dir;
}

function check(dir) {
  return spawnSync(process.execPath, [script, '--book', join(dir, 'book'), '--readme', join(dir, 'README.md')], { encoding: 'utf8' });
}

const good = {
  'index.html': '<h1 id="top">apcheck</h1><a href="guide/check.html#exit-codes">exit codes</a> <a href="https://example.com/">out</a> <a href="#top">up</a>',
  'guide/check.html': '<h2 id="exit-codes">Exit codes</h2><a href="../index.html">home</a><link href="../css/book.css">',
  'css/book.css': '',
};

test('a book and README whose links all resolve pass', (t) => {
  const dir = site(good, '# apcheck\n\n## A short tour\n\n[tour](#a-short-tour), `[not a link](nowhere.md)`\n');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const run = check(dir);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /2 pages of the book and 1 links of .*README\.md, every internal link and anchor resolves/);
});

test('a link to a missing page, a missing anchor, and a README anchor that is no heading all fail, each named', (t) => {
  const pages = {
    ...good,
    'index.html': `${good['index.html']}<a href="guide/gone.html">gone</a><a href="guide/check.html#no-such">anchor</a>`,
  };
  const dir = site(pages, '# apcheck\n\n[tour](#a-short-tour)\n');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const run = check(dir);
  assert.equal(run.status, 1);
  assert.match(run.stderr, /3 broken link/);
  assert.match(run.stderr, /guide\/gone\.html: no such file/);
  assert.match(run.stderr, /guide\/check\.html#no-such: no #no-such in /);
  assert.match(run.stderr, /#a-short-tour: no heading with that anchor/);
});

test('a README link to a file that does not exist fails', (t) => {
  const dir = site(good, '# apcheck\n\nSee [the guide](docs/guide/nowhere.md).\n');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const run = check(dir);
  assert.equal(run.status, 1);
  assert.match(run.stderr, /docs\/guide\/nowhere\.md: no such file/);
});

test('a README link into docs/ must be a page of the book, and its anchor an id of the built page', (t) => {
  const dir = site(good, '# apcheck\n\n[exit codes](docs/guide/check.md#exit-codes), [bad](docs/guide/check.md#nope), [extra](docs/extra.md)\n');
  for (const page of ['guide/check.md', 'extra.md']) {
    mkdirSync(dirname(join(dir, 'docs', page)), { recursive: true });
    writeFileSync(join(dir, 'docs', page), '# page\n');
  }
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const run = check(dir);
  assert.equal(run.status, 1);
  assert.match(run.stderr, /2 broken link/);
  assert.match(run.stderr, /docs\/guide\/check\.md#nope: no #nope in /);
  assert.match(run.stderr, /docs\/extra\.md: .*docs\/extra\.md is not a page of the book/);
});
