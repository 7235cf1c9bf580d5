// The body of a SKILL.md, highlighted line by line: headings, fenced and
// inline code, emphasis, links, list markers and quotes. What an author
// scans for in a skill's instructions, and nothing a check depends on (the
// checks run on the text in Rust). @lezer/markdown's full CommonMark + GFM
// parser did the same at about 11 KiB of the page's 950 KiB transfer budget,
// which the validation guard of the Schema view needed more.

import { StreamLanguage } from '@codemirror/language';

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

export const skillBody = StreamLanguage.define({
  name: 'markdown',
  startState: () => ({ fence: null }),
  copyState: (state) => ({ fence: state.fence }),
  token(stream, state) {
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
  },
});
