// CodeMirror 6, bundled (never from a CDN): one setup for every editor on the
// page — line numbers, highlighting, folding, search, lint markers at exact spans.

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import {
  bracketMatching,
  foldGutter,
  foldKeymap,
  HighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from '@codemirror/language';
import { lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { tags } from '@lezer/highlight';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  placeholder,
} from '@codemirror/view';
import { skillFile } from './markdown.js';
import { visible } from './visible.js';

const LANGUAGES = {
  json: () => json(),
  markdown: () => skillFile,
  text: () => [],
};

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', backgroundColor: 'var(--editor-bg)', color: 'var(--fg)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-gutters': { backgroundColor: 'var(--editor-gutter)', color: 'var(--muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLine': { backgroundColor: 'var(--editor-active)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--editor-active)' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '-2px' },
  '.cm-cursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--selection)' },
  '.cm-panels': { backgroundColor: 'var(--panel)', color: 'var(--fg)' },
  // CodeMirror's own grey is too faint on white (WCAG AA).
  '.cm-placeholder': { color: 'var(--muted)' },
});

// Token colours from CSS variables, so light and dark follow the system like the rest of the page.
const highlightStyle = HighlightStyle.define([
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--hl-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--hl-literal)' },
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--hl-property)' },
  { tag: [tags.keyword, tags.meta, tags.processingInstruction], color: 'var(--hl-keyword)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--muted)', fontStyle: 'italic' },
  { tag: tags.heading, fontWeight: '700', color: 'var(--hl-heading)' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: [tags.link, tags.url], color: 'var(--accent)', textDecoration: 'underline' },
  { tag: tags.invalid, color: 'var(--bad)' },
]);

const prefersDark = () => globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;

/** The extensions every editor shares (the diff view's merge editors use them too). */
export function baseExtensions(language = 'json') {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    foldGutter(),
    lintGutter(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    search({ top: true }),
    // Long lines wrap: no pane scrolls sideways (a scroller keyboard users could not reach), on narrow screens least of all.
    EditorView.lineWrapping,
    syntaxHighlighting(highlightStyle),
    // The text is in the tab order anyway (contenteditable); saying so lets checkers such as axe
    // see that a long document's scroller is reachable by keyboard.
    EditorView.contentAttributes.of({ tabindex: '0' }),
    // Lets CodeMirror's own parts (merge view, panels) pick their dark colours.
    EditorView.darkTheme.of(prefersDark()),
    // Tab is left unbound so it moves the focus on, as everywhere else on the page;
    // Ctrl+] and Ctrl+[ (in defaultKeymap) indent and dedent.
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, ...foldKeymap, ...lintKeymap]),
    theme,
    (LANGUAGES[language] ?? LANGUAGES.text)(),
  ];
}

/**
 * An editor in `parent`. `label` names it for screen readers; `onChange(text)`
 * runs after each edit.
 */
export function createEditor(parent, { doc = '', language = 'json', readOnly = false, label, hint, onChange } = {}) {
  const languageSlot = new Compartment();
  const readOnlySlot = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        baseExtensions('text'),
        languageSlot.of((LANGUAGES[language] ?? LANGUAGES.text)()),
        readOnlySlot.of([EditorState.readOnly.of(readOnly)]),
        EditorView.contentAttributes.of({ 'aria-label': label ?? 'editor' }),
        hint ? placeholder(hint) : [],
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange?.(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    view,
    get text() {
      return view.state.doc.toString();
    },
    /** Replaces the document; its marks go with it (they were about the text replaced). */
    set text(value) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
      view.dispatch(setDiagnostics(view.state, []));
    },
    setLanguage(name) {
      view.dispatch({ effects: languageSlot.reconfigure((LANGUAGES[name] ?? LANGUAGES.text)()) });
    },
    setReadOnly(value) {
      view.dispatch({ effects: readOnlySlot.reconfigure([EditorState.readOnly.of(value)]) });
    },
    /** Markers: [{from, to, severity: 'error'|'warning'|'info', message}] in UTF-16 offsets. */
    mark(markers) {
      const length = view.state.doc.length;
      // Lint tooltips show messages as text: escaped as every other view's are (visible.js).
      const clamped = markers.map((marker) => ({
        ...marker,
        message: visible(marker.message),
        from: Math.min(Math.max(0, marker.from), length),
        to: Math.min(Math.max(marker.from, marker.to), length),
      }));
      view.dispatch(setDiagnostics(view.state, clamped));
    },
    /**
     * Applies `changes` ([{from, to, insert}] in UTF-16 offsets of the current
     * text, not overlapping) as one transaction: one Ctrl+Z undoes all of them.
     */
    apply(changes, userEvent = 'input') {
      view.dispatch({ changes, userEvent });
    },
    /** Selects a range, scrolls it into view and (unless `focus` is false) focuses the editor. */
    reveal(from, to = from, focus = true) {
      const length = view.state.doc.length;
      const anchor = Math.min(Math.max(0, from), length);
      const head = Math.min(Math.max(anchor, to), length);
      view.dispatch({ selection: { anchor, head }, effects: EditorView.scrollIntoView(anchor, { y: 'center' }) });
      if (focus) view.focus();
    },
    /** The UTF-16 offset of a 1-based line and column (column in characters). */
    offsetAt(line, column = 1) {
      const doc = view.state.doc;
      const target = doc.line(Math.min(Math.max(1, line), doc.lines));
      return Math.min(target.from + Math.max(0, column - 1), target.to);
    },
  };
}

/** Converts a UTF-8 byte offset into `text` to a UTF-16 offset (what the editor counts). */
export function byteToCharOffset(text, byteOffset) {
  let bytes = 0;
  let index = 0;
  while (index < text.length && bytes < byteOffset) {
    const code = text.codePointAt(index);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code >= 0x10000 ? 2 : 1;
  }
  return index;
}
