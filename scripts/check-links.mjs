#!/usr/bin/env node
// Checks every internal link of the built book and of README.md, so that a
// moved page or a renamed heading fails CI instead of leaving a dead link.
//
// - The book (built by `mdbook build docs` into target/book/): every relative
//   `href` and `src` of every page must name a file of the build, and its
//   `#fragment` an `id` of that page. Addresses with a scheme (https:, mailto:)
//   are not fetched: the check runs offline.
// - README.md: every relative Markdown link must name a file of the
//   repository; one into docs/ with a `#fragment` must name an `id` of the
//   built page, and a bare `#fragment` a heading of the README (as GitHub
//   spells heading anchors).
//
//   node scripts/check-links.mjs [--book DIR] [--readme FILE]   (after `mdbook build docs`)

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const flag = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? resolve(process.argv[at + 1]) : fallback;
};
const book = flag('--book', join(root, 'target/book'));
const readme = flag('--readme', join(root, 'README.md'));
// The book's sources, beside the README.
const docs = join(dirname(readme), 'docs');

if (!existsSync(join(book, 'index.html'))) {
  console.error(`check-links: no book in ${book}: run \`mdbook build docs\` first`);
  process.exit(1);
}

const broken = [];
const hasScheme = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

function htmlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return htmlFiles(path);
    return entry.name.endsWith('.html') ? [path] : [];
  });
}

const idCache = new Map();
/** The `id`s (and old-style `name` anchors) of an HTML file. */
function idsOf(file) {
  if (!idCache.has(file)) {
    const html = readFileSync(file, 'utf8');
    idCache.set(file, new Set([...html.matchAll(/\s(?:id|name)="([^"]*)"/g)].map((match) => decodeEntities(match[1]))));
  }
  return idCache.get(file);
}

function decodeEntities(text) {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, entity) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[entity]);
}

/** Checks `target` (relative to `fromDir`); `where` names the link in a failure. */
function checkTarget(target, fromDir, where, fragmentCheck) {
  const [pathPart, fragment] = splitFragment(target);
  let file = pathPart === '' ? null : resolve(fromDir, decodeURIComponent(pathPart.split('?')[0]));
  if (file !== null) {
    if (!existsSync(file)) return broken.push(`${where}: ${target}: no such file`);
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) return broken.push(`${where}: ${target}: a folder without index.html`);
  }
  if (fragment) fragmentCheck(file, fragment, target);
}

function splitFragment(target) {
  const at = target.indexOf('#');
  return at < 0 ? [target, ''] : [target.slice(0, at), decodeURIComponent(target.slice(at + 1))];
}

// The book. mdBook's 404 page resolves its links against the site's root, not
// its own folder, so it is left out; every other page is checked.
const pages = htmlFiles(book).filter((file) => relative(book, file) !== '404.html');
for (const page of pages) {
  const html = readFileSync(page, 'utf8');
  for (const [, attribute, raw] of html.matchAll(/\s(href|src)="([^"]*)"/g)) {
    const target = decodeEntities(raw);
    if (target === '' || target === '#' || hasScheme(target)) continue;
    const where = `${relative(root, page)} (${attribute})`;
    checkTarget(target, dirname(page), where, (file, fragment) => {
      const inFile = file ?? page;
      if (inFile.endsWith('.html') && !idsOf(inFile).has(fragment)) broken.push(`${where}: ${target}: no #${fragment} in ${relative(root, inFile)}`);
    });
  }
}

// README.md: its Markdown links, outside code.
const readmeText = readFileSync(readme, 'utf8');
const prose = readmeText.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
const headings = new Set();
for (const [, title] of readmeText.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
  // GitHub's anchor: lower case, punctuation other than `-` and `_` dropped, spaces to `-`.
  headings.add(title.replace(/`/g, '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-'));
}
let readmeLinks = 0;
for (const [, target] of prose.matchAll(/(?<!!)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
  if (hasScheme(target)) continue;
  readmeLinks++;
  const where = relative(root, readme);
  const [pathPart, fragment] = splitFragment(target);
  if (pathPart === '') {
    if (!headings.has(fragment)) broken.push(`${where}: ${target}: no heading with that anchor`);
    continue;
  }
  const file = resolve(dirname(readme), decodeURIComponent(pathPart));
  if (!existsSync(file)) {
    broken.push(`${where}: ${target}: no such file`);
    continue;
  }
  // A page of docs/ must be a page of the book (named in docs/SUMMARY.md), so
  // that the README and the book agree; its fragment is then an id of the built page.
  const inDocs = relative(docs, file);
  const isPage = !inDocs.startsWith('..') && file.endsWith('.md') && inDocs !== 'SUMMARY.md';
  const built = isPage ? join(book, inDocs.replace(/\.md$/, '.html')) : null;
  if (built && !existsSync(built)) broken.push(`${where}: ${target}: ${relative(root, file)} is not a page of the book (missing from docs/SUMMARY.md?)`);
  else if (fragment && !built) broken.push(`${where}: ${target}: a fragment can be checked only in the book's pages`);
  else if (fragment && !idsOf(built).has(fragment)) broken.push(`${where}: ${target}: no #${fragment} in ${relative(root, built)}`);
}

if (broken.length) {
  console.error(`check-links: ${broken.length} broken link(s):\n${broken.join('\n')}`);
  process.exit(1);
}
console.log(`check-links: ${pages.length} pages of the book and ${readmeLinks} links of ${relative(root, readme)}, every internal link and anchor resolves`);
