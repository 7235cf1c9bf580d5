// The SKILL.md highlighter (www/src/markdown.js): which spans of a skill's
// frontmatter and instructions get which highlight tag. Plain Node, no browser: the
// highlighter is a CodeMirror stream language, run here on an EditorState.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ensureSyntaxTree } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { highlightTree, tagHighlighter, tags } from '@lezer/highlight';
import { skillFile } from '../../www/src/markdown.js';

const NAMES = ['heading', 'monospace', 'strong', 'emphasis', 'link', 'list', 'quote', 'propertyName', 'string', 'number', 'bool', 'null', 'comment', 'meta'];
const highlighter = tagHighlighter(NAMES.map((name) => ({ tag: tags[name], class: name })));

/** Each highlighted span of `text` as "class:text". */
function spans(text) {
  const state = EditorState.create({ doc: text, extensions: skillFile });
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

test('the frontmatter: keys, values by their YAML 1.2 type, comments, and then the body', () => {
  const text = [
    '---',
    'name: pdf-tools # the folder name',
    'description: Fill forms: fast, then check',
    '# a whole-line comment',
    'metadata:',
    '  version: 1.0',
    '  stable: true',
    '  owner: null',
    "  tags: [pdf, 'form fill', 3]",
    '  url: https://x.example/#top',
    '---',
    '# Steps',
  ].join('\n');
  assert.deepEqual(spans(text), [
    'meta:---',
    'propertyName:name',
    'string:pdf-tools',
    'comment:# the folder name',
    'propertyName:description',
    'string:Fill forms: fast, then check',
    'comment:# a whole-line comment',
    'propertyName:metadata',
    'propertyName:version',
    'number:1.0',
    'propertyName:stable',
    'bool:true',
    'propertyName:owner',
    'null:null',
    'propertyName:tags',
    'string:pdf',
    "string:'form fill'",
    'number:3',
    'propertyName:url',
    'string:https://x.example/#top',
    'meta:---',
    'heading:# Steps',
  ]);
});

test('a block scalar runs while its lines are indented past its key, a `#` in it included', () => {
  const text = ['---', 'license: |', '  MIT, see', '  # not a comment', 'compatibility: >-', '  any', '---', 'body'].join('\n');
  assert.deepEqual(spans(text), [
    'meta:---',
    'propertyName:license',
    'meta:|',
    'string:  MIT, see',
    'string:  # not a comment',
    'propertyName:compatibility',
    'meta:>-',
    'string:  any',
    'meta:---',
  ]);
});

test('a file that does not open with `---` is all body', () => {
  assert.deepEqual(spans('\n---\nname: x\n'), []);
  assert.deepEqual(spans('# Title\n---\n'), ['heading:# Title']);
});
