// A SKILL.md, highlighted line by line: the YAML frontmatter between its
// `---` lines (keys, quoted and plain values, literals, block scalars,
// comments), then the Markdown body (headings, fenced and inline code,
// emphasis, links, list markers and quotes). What an author scans for, and
// nothing a check depends on: the checks run on the text in Rust, with a real
// YAML reader. Lezer's full parsers did the same at about 11 KiB (Markdown)
// and 4 KiB (YAML) of the page's 950 KiB transfer budget, which the
// validation guard of the Schema view needed more.

import { StreamLanguage } from '@codemirror/language';

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const DELIMITER = /^---\s*$/;
// A plain scalar is a literal when YAML 1.2's core schema reads it as one.
const LITERALS = [
  [/^(true|false|True|False|TRUE|FALSE)$/, 'bool'],
  [/^(null|Null|NULL|~)$/, 'null'],
  [/^([-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$/, 'number'],
];

function frontmatterToken(stream, state) {
  if (stream.sol()) {
    state.key = true;
    if (stream.match(DELIMITER)) {
      state.part = 'body';
      return 'meta';
    }
    // The lines of a block scalar (`|` or `>`) are those indented deeper than its key's line.
    if (state.blockIndent !== null) {
      if (stream.indentation() > state.blockIndent) {
        stream.skipToEnd();
        return 'string';
      }
      state.blockIndent = null;
    }
  }
  if (stream.eatSpace()) return null;
  const start = stream.pos;
  const afterSpace = start === 0 || /\s/.test(stream.string[start - 1]);
  if (stream.peek() === '#' && afterSpace) {
    stream.skipToEnd();
    return 'comment';
  }
  if (stream.match(/^[[{]/)) {
    state.flow += 1;
    state.key = true;
    return null;
  }
  if (stream.match(/^[\]}]/)) {
    state.flow = Math.max(0, state.flow - 1);
    return null;
  }
  if (stream.match(/^,/)) {
    state.key = state.flow > 0;
    return null;
  }
  if (stream.match(/^-(?=\s|$)/) || stream.match(/^[:?](?=\s|$)/)) return null;
  if (stream.match(/^[&*!][^\s,[\]{}]*/)) return 'meta';
  if (state.key && stream.match(/^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"[\]{},:&*!|>][^#]*?)(?=\s*:(\s|$))/)) {
    state.key = false;
    return 'propertyName';
  }
  state.key = false;
  if (stream.match(/^[|>][-+0-9]*(?=\s*(#.*)?$)/)) {
    state.blockIndent = stream.indentation();
    return 'meta';
  }
  if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^']|'')*'?/)) return 'string';
  // A plain scalar runs to a comment or the line's end, and in a flow collection to its punctuation.
  const plain = state.flow > 0 ? /^(?:[^\s#,[\]{}]|\s+(?![\s#,[\]{}])|#)+/ : /^(?:[^\s#]|\s+(?![\s#])|#)+/;
  stream.match(plain) || stream.next();
  stream.backUp(stream.current().length - stream.current().trimEnd().length);
  const literal = LITERALS.find(([pattern]) => pattern.test(stream.current()));
  return literal ? literal[1] : 'string';
}

function bodyToken(stream, state) {
  if (stream.sol()) {
    const fence = stream.match(FENCE, false);
    if (state.fence !== null) {
      // Inside a fenced block: everything is code until the fence that closes it.
      if (fence && fence[1][0] === state.fence[0] && fence[1].length >= state.fence.length && /^\s*$/.test(stream.string.slice(fence[0].length))) state.fence = null;
      stream.skipToEnd();
      return 'monospace';
    }
    if (fence) {
      state.fence = fence[1];
      stream.skipToEnd();
      return 'monospace';
    }
    if (stream.match(/^\s{0,3}#{1,6}(\s|$)/)) {
      stream.skipToEnd();
      return 'heading';
    }
    if (stream.match(/^\s{0,3}>/)) return 'quote';
    if (stream.match(/^\s*([-*+]|\d{1,9}[.)])(?=\s)/)) return 'list';
  }
  if (stream.match(/^`+/)) {
    // Inline code: to the run of as many backticks, or just the run itself.
    const ticks = stream.current();
    const close = stream.string.indexOf(ticks, stream.pos);
    if (close >= 0) stream.pos = close + ticks.length;
    return 'monospace';
  }
  if (stream.match(/^(\*\*|__)(?=\S)(.*?\S)\1/)) return 'strong';
  if (stream.match(/^([*_])(?=\S)(.*?\S)\1/)) return 'emphasis';
  if (stream.match(/^\[[^\]]*\]\([^)\s]*\)/) || stream.match(/^<https?:\/\/[^>\s]+>/)) return 'link';
  stream.next();
  stream.eatWhile(/[^`*_[<]/);
  return null;
}

export const skillFile = StreamLanguage.define({
  name: 'skill',
  // `part`: 'start' (the first line decides whether a frontmatter opens), 'frontmatter' or 'body'.
  startState: () => ({ part: 'start', key: true, flow: 0, blockIndent: null, fence: null }),
  copyState: (state) => ({ ...state }),
  blankLine(state) {
    if (state.part === 'start') state.part = 'body';
  },
  token(stream, state) {
    if (state.part === 'start') {
      if (stream.match(DELIMITER)) {
        state.part = 'frontmatter';
        return 'meta';
      }
      state.part = 'body';
    }
    return state.part === 'frontmatter' ? frontmatterToken(stream, state) : bodyToken(stream, state);
  },
  languageData: { commentTokens: { block: { open: '<!--', close: '-->' } } },
});
