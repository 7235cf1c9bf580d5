// The SKILL.md body's highlighter (www/src/markdown.js): which spans of a
// skill's instructions get which highlight tag. Plain Node, no browser: the
// highlighter is a CodeMirror stream language, run here on an EditorState.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ensureSyntaxTree } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { highlightTree, tagHighlighter, tags } from '@lezer/highlight';
import { skillBody } from '../../www/src/markdown.js';

const NAMES = ['heading', 'monospace', 'strong', 'emphasis', 'link', 'list', 'quote'];
const highlighter = tagHighlighter(NAMES.map((name) => ({ tag: tags[name], class: name })));

/** Each highlighted span of `text` as "class:text". */
function spans(text) {
  const state = EditorState.create({ doc: text, extensions: skillBody });
  const tree = ensureSyntaxTree(state, text.length, 5000);
  const found = [];
  highlightTree(tree, highlighter, (from, to, classes) => found.push(`${classes}:${text.slice(from, to)}`));
  return found;
}

test('headings, lists, quotes and inline marks are told apart', () => {
  assert.deepEqual(spans('# Steps\n1. Run `query --week` now\n> **Note**: see [docs](https://x.example) or _this_\n'), [
    'heading:# Steps',
    'list:1.',
    'monospace:`query --week`',
    'quote:>',
    'strong:**Note**',
    'link:[docs](https://x.example)',
    'emphasis:_this_',
  ]);
});

test('a fenced block is code to its closing fence, whatever it holds', () => {
  assert.deepEqual(spans('```sh\n# not a heading\n- not a list\n```\nafter *it*\n'), [
    'monospace:```sh',
    'monospace:# not a heading',
    'monospace:- not a list',
    'monospace:```',
    'emphasis:*it*',
  ]);
});

test('a shorter or different fence does not close a block', () => {
  assert.deepEqual(spans('````\n```\n~~~~\n````\n# heading\n'), [
    'monospace:````',
    'monospace:```',
    'monospace:~~~~',
    'monospace:````',
    'heading:# heading',
  ]);
});

test('an unclosed backtick run and a lone star are plain text', () => {
  assert.deepEqual(spans('a `b and 2 * 3 * 4\n#hashtag\n'), ['monospace:`']);
});
