// Karpenter Playground's YAML editor: CodeMirror 6 behind a small API for the Rust side
// (wasm-bindgen). Built into one ES module (esbuild --bundle --format=esm --minify) and
// imported lazily the first time the editor shows.
//
//   const ed = create(parent, text, {
//     onChange(text, key, pasted), // the learner's edits (never those made by setText/setDoc),
//                            // with the setDoc key of the document they belong to (null before
//                            // any) and whether a paste or a drop was among them
//     changeDelay,           // ms; 0 (default): onChange on every change; > 0: once typing
//                            // pauses that long (and on blur, setDoc, text(), destroy)
//     onUndo(redo),          // optional: the page's own undo history (see undoing() below);
//                            // without it, CodeMirror's history per document
//     onPaste(text),         // optional: sees a paste's text first; true takes it away from
//                            // the editor (the page imports what kubectl printed)
//     readOnly, label, describedBy, dark,
//   });
//   ed.setText(text)         // replace the text (a minimal diff: caret, scroll, undo survive);
//                            // a no-op when text is what the Rust side last saw
//   ed.setDoc(key, text)     // switch tabs: each key keeps its own state (history, caret, scroll)
//   ed.setDiagnostics([{ line, column, severity: 'error'|'warning', message }])
//                            // (or { from, to, ... } offsets); underlines the word at the
//                            // column as highlight.rs does, colours the line number
//   ed.revealLine(line, column?) // scroll there (centred) and select the line (or put the caret
//                            // at the column); focuses the editor
//   ed.setTheme('dark' | 'light')
//   ed.text(); ed.focus(); ed.destroy()
//   parent.kpgEditor === ed (for the browser tests: the DOM holds only the lines on screen)
//
// Colours come from the page's CSS variables (--code-bg, --tok-key, …), so the page's own
// light/dark switch recolours the editor; setTheme only flips CodeMirror's own dark flag
// (its default selection and panel colours).
import {
  EditorState, Compartment, StateField, StateEffect, RangeSet, RangeSetBuilder, Annotation,
} from '@codemirror/state';
import {
  EditorView, keymap, lineNumbers, lineNumberMarkers, GutterMarker, drawSelection,
  highlightActiveLine, highlightActiveLineGutter, highlightSpecialChars,
} from '@codemirror/view';
import { history, defaultKeymap, historyKeymap, indentMore } from '@codemirror/commands';
import { syntaxHighlighting, HighlightStyle, indentUnit } from '@codemirror/language';
import { setDiagnostics as lintSet } from '@codemirror/lint';
import { tags as t } from '@lezer/highlight';
import { yamlLines } from './yaml-lines.js';
// YAML colouring: yaml-lines.js, the page's own line tokenizer (highlight.rs) as a
// StreamLanguage. The variants for the comparison pass `language` (Lezer's YAML,
// editor-lezer.js) and `setup` (CodeMirror's basicSetup, editor-basic.js) instead.

// Marks the changes setText makes, so they are not reported back through onChange.
const fromOutside = Annotation.define();

// The page's token colours (style.css: .hl .k/.s/.n/.b/.c/.p/.m/.a).
const colours = HighlightStyle.define([
  { tag: t.propertyName, color: 'var(--tok-key)' },
  { tag: [t.string, t.content], color: 'var(--tok-str)' },
  { tag: t.number, color: 'var(--tok-num)' },
  { tag: [t.bool, t.labelName, t.typeName, t.keyword], color: 'var(--tok-bool)' },
  { tag: t.comment, color: 'var(--tok-comment)', fontStyle: 'italic' },
  { tag: [t.separator, t.meta, t.punctuation], color: 'var(--muted)' },
]);

// The page's look: its font, its 20 px lines, its variables (style.css, `.editor`).
const look = (dark) => EditorView.theme({
  '&': { height: '100%', background: 'var(--code-bg)', color: 'var(--text)', fontSize: '13px' },
  '&.cm-focused': { outline: 'none', boxShadow: 'inset 0 0 0 2px var(--accent)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '20px' },
  '.cm-content': { padding: '8px 0', caretColor: 'var(--text)', fontVariantLigatures: 'none' },
  '.cm-line': { padding: '0 12px' },
  '.cm-gutters': { background: 'var(--code-bg)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-lineNumbers .cm-gutterElement': { padding: '0 8px 0 10px', minWidth: '4ch' },
  '.cm-gutterElement.g-err': { color: '#fff', background: 'var(--err)', borderRadius: '3px' },
  '.cm-gutterElement.g-warn': { color: 'var(--text)', background: 'var(--warn)', borderRadius: '3px' },
  '.cm-activeLine, .cm-activeLineGutter': { background: 'var(--accent-soft)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground':
    { background: 'rgba(86, 180, 233, 0.35)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.tok-n': { color: 'var(--tok-num)' },
  '.tok-b': { color: 'var(--tok-bool)' },
  // The page's own wavy underlines (.u-err/.u-warn) instead of lint's SVG data: URLs, which a
  // CSP without `img-src data:` would block.
  '.cm-lintRange-error': { backgroundImage: 'none', textDecoration: 'underline wavy var(--err)',
    textDecorationSkipInk: 'none', textUnderlineOffset: '4px', background: 'rgba(213, 94, 0, 0.1)' },
  '.cm-lintRange-warning': { backgroundImage: 'none', textDecoration: 'underline wavy var(--warn)',
    textDecorationSkipInk: 'none', textUnderlineOffset: '4px' },
  '.cm-tooltip': { background: 'var(--panel)', color: 'var(--text)', border: '1px solid var(--border)' },
}, { dark });

// Line numbers coloured like the page's gutter (.g-err/.g-warn) on lines with a problem.
class LineMark extends GutterMarker {
  constructor(cls) { super(); this.elementClass = cls; }
  eq(o) { return o.elementClass === this.elementClass; }
}
const ERR = new LineMark('g-err');
const WARN = new LineMark('g-warn');
const setLineMarks = StateEffect.define();
const lineMarks = StateField.define({
  create: () => RangeSet.empty,
  update(v, tr) {
    for (const e of tr.effects) if (e.is(setLineMarks)) return e.value;
    return v.map(tr.changes);
  },
  provide: (f) => lineNumberMarkers.from(f),
});

/** The character offset of a 1-based line and column (column in code points). */
function offsetOf(doc, line, column) {
  const l = doc.line(Math.max(1, Math.min(line, doc.lines)));
  let pos = l.from;
  for (let i = 1; i < (column || 1) && pos < l.to; i++) {
    pos += doc.sliceString(pos, pos + 2).codePointAt(0) > 0xffff ? 2 : 1;
  }
  return Math.min(pos, l.to);
}

/** What web/src/editor/highlight.rs underlines: the word that starts at the column. */
function wordAt(doc, from) {
  const l = doc.lineAt(from);
  const rest = doc.sliceString(from, l.to);
  const m = /[ ,\]}]/.exec(rest);
  return from + (m ? Math.max(m.index, 1) : rest.length);
}

// Undo: CodeMirror's history per document, or, with `onUndo`, the page's own (it spans tabs,
// lessons and migrations): Ctrl/⌘+Z, Ctrl/⌘+Shift+Z, Ctrl+Y and the browser's Edit menu
// (beforeinput historyUndo/historyRedo) go to onUndo(redo), whose new text comes back
// through setText and its caret through revealLine(line, column).
function undoing(o) {
  if (!o.onUndo) return [history(), keymap.of(historyKeymap)];
  // A change still waiting for its delay is reported first, so the undo takes back that one.
  const ask = (redo) => (view) => {
    if (!o.readOnly) { o.flush(view); o.onUndo(redo); }
    return true;
  };
  return [
    // The keys themselves, as web/src/views/manifests_pane.rs's undo_key reads them (a keymap's
    // Shift-Mod-z missed Ctrl+Shift+Z as browsers report it).
    EditorView.domEventHandlers({
      keydown(e, view) {
        if (!(e.ctrlKey || e.metaKey) || e.altKey) return false;
        const key = e.key.toLowerCase();
        if (key !== 'z' && !(key === 'y' && !e.shiftKey)) return false;
        e.preventDefault();
        ask(key === 'y' || e.shiftKey)(view);
        return true;
      },
      beforeinput(e, view) {
        if (e.inputType !== 'historyUndo' && e.inputType !== 'historyRedo') return false;
        e.preventDefault();
        ask(e.inputType === 'historyRedo')(view);
        return true;
      },
    }),
  ];
}

// What Tab does, settled as accessible code editors settle it, so a keyboard user is never
// trapped and never breaks the YAML by passing through:
// - arriving without the pointer (Tab from the page, a jump from the Problems panel), Tab
//   and Shift+Tab move on ('moves');
// - once the learner edits (types, deletes, pastes) or clicks into the text, Tab indents
//   ('indents');
// - Escape goes back to 'moves' until the next edit; Ctrl+M (Shift+Alt+M on a Mac, as in
//   CodeMirror and VS Code) switches by hand.
// The mode is the parent's data-tab attribute, which the page's visible hint reads.
function tabKeys(o) {
  return {
    pointerdown(_, view) { o.pointed = true; o.tabMode(view, 'indents'); return false; },
    focus(_, view) {
      if (!o.pointed) o.tabMode(view, 'moves');
      o.pointed = false;
      return false;
    },
    keydown(e, view) {
      if (e.key === 'Escape' && !e.isComposing) o.tabMode(view, 'moves');
      return false;
    },
  };
}

function makeState(text, o, theme) {
  // Tab: two spaces at the caret, as today (YAML forbids tab characters, which CodeMirror's
  // insertTab would type); with a selection, indent its lines.
  const tab = ({ state, dispatch }) => {
    if (state.readOnly) return false;
    if (state.selection.ranges.some((r) => !r.empty)) return indentMore({ state, dispatch });
    dispatch(state.update(state.replaceSelection('  '), { scrollIntoView: true, userEvent: 'input' }));
    return true;
  };
  // tabindex: the content is a Tab stop anyway (contenteditable); said outright, checkers
  // such as axe see that the scrolling region holds something focusable.
  const attrs = { 'aria-label': o.label || 'YAML', spellcheck: 'false', autocapitalize: 'off',
    autocorrect: 'off', tabindex: '0' };
  if (o.describedBy) attrs['aria-describedby'] = o.describedBy;
  return EditorState.create({
    doc: text,
    extensions: [
      o.setup || [lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(),
        drawSelection(), highlightActiveLine()],
      undoing(o),
      EditorState.tabSize.of(2),
      indentUnit.of('  '),
      o.language || yamlLines,
      syntaxHighlighting(colours),
      lineMarks,
      theme.of(look(!!o.dark)),
      EditorView.contentAttributes.of(attrs),
      EditorState.readOnly.of(!!o.readOnly),
      // Tab indents (two spaces) once the learner edits; see tabKeys for when it moves on.
      keymap.of([{ key: 'Tab', run: tab }, { key: 'Ctrl-m', mac: 'Shift-Alt-m', run: o.toggleTab },
        ...defaultKeymap]),
      EditorView.updateListener.of((u) => {
        if (u.transactions.some((tr) => tr.isUserEvent('input.paste') || tr.isUserEvent('input.drop'))) {
          o.pasted = true;
        }
        if (u.docChanged && !u.transactions.every((tr) => tr.annotation(fromOutside))) o.changed(u.view);
        if (u.transactions.some((tr) => tr.isUserEvent('input') || tr.isUserEvent('delete'))) {
          o.tabMode(u.view, 'indents');
        }
      }),
      EditorView.domEventHandlers({ blur: (_, view) => o.flush(view), paste: pasteTo(o), ...tabKeys(o) }),
    ],
  });
}

// A paste the page takes (onPaste says so) never reaches the document.
function pasteTo(o) {
  return (event) => {
    const text = event.clipboardData && event.clipboardData.getData('text/plain');
    if (!o.onPaste || !text || !o.onPaste(text)) return false;
    event.preventDefault();
    return true;
  };
}

export function create(parent, text, options = {}) {
  // `last`: the text the Rust side has (reported by onChange or given by setText).
  const o = { ...options, last: text, key: null };
  // onChange, now or (changeDelay > 0) once typing pauses: a call copies the whole text
  // (2 MB: ~15 ms and as much again in garbage collection), so a burst of keys pays once.
  let timer = 0;
  o.flush = (view) => {
    if (!timer) return;
    clearTimeout(timer);
    timer = 0;
    o.last = view.state.doc.toString();
    // onChange may run inside CodeMirror's update (changeDelay 0): a setText it makes then
    // waits for a microtask, as CodeMirror refuses an update inside another.
    const pasted = !!o.pasted;
    o.pasted = false;
    o.reporting = true;
    try { if (o.onChange) o.onChange(o.last, o.key, pasted); } finally { o.reporting = false; }
  };
  // While an IME composes (Korean: ㅎ → 하 → 한), the text holds unfinished syllables: they
  // are reported once the composition ends.
  const later = (view) => {
    timer = setTimeout(() => (view.composing ? later(view) : o.flush(view)), o.changeDelay || 50);
  };
  o.changed = (view) => {
    clearTimeout(timer);
    later(view);
    if (!o.changeDelay && !view.composing) o.flush(view);
  };
  o.tabMode = (view, mode) => {
    const next = o.readOnly ? 'moves' : mode;
    view.setTabFocusMode(next === 'moves');
    if (parent.dataset.tab !== next) parent.dataset.tab = next;
  };
  o.toggleTab = (view) => {
    o.tabMode(view, parent.dataset.tab === 'moves' ? 'indents' : 'moves');
    return true;
  };
  const theme = new Compartment();
  const view = new EditorView({ state: makeState(text, o, theme), parent });
  o.tabMode(view, 'moves');
  const docs = new Map(); // key → EditorState of the tabs not shown

  const api = {
    view, // for tests and debugging only
    /** The current text, reporting a change that waits for its delay first. */
    text() { o.flush(view); return o.last; },
    setText(next) {
      // The Rust side echoing what it was told (or an old text while a report waits): no-op.
      if (next === o.last) return;
      if (o.reporting) { queueMicrotask(() => this.setText(next)); return; }
      clearTimeout(timer);
      timer = 0;
      const doc = view.state.doc.toString();
      o.last = next;
      if (next === doc) return;
      // Replace only what differs, so the caret, the scroll position and undo survive a
      // change made elsewhere (a migration, the share link's text, a lesson step).
      let a = 0;
      const max = Math.min(doc.length, next.length);
      while (a < max && doc.charCodeAt(a) === next.charCodeAt(a)) a++;
      let b = 0;
      while (b < max - a && doc.charCodeAt(doc.length - 1 - b) === next.charCodeAt(next.length - 1 - b)) b++;
      view.dispatch({
        changes: { from: a, to: doc.length - b, insert: next.slice(a, next.length - b) },
        annotations: fromOutside.of(true),
      });
    },
    setDoc(nextKey, next) {
      if (nextKey === o.key) return this.setText(next);
      // A change still waiting for its delay belongs to the document being left: reported
      // now, with that document's key.
      o.flush(view);
      if (o.key !== null) docs.set(o.key, { state: view.state, top: view.scrollDOM.scrollTop });
      o.key = nextKey;
      const kept = docs.get(nextKey);
      if (kept && kept.state.doc.toString() === next) {
        view.setState(kept.state);
        view.requestMeasure({ read() {}, write() { view.scrollDOM.scrollTop = kept.top; } });
      } else {
        view.setState(makeState(next, o, theme));
      }
      o.last = next;
    },
    setDiagnostics(list) {
      const doc = view.state.doc;
      const diags = [];
      const marks = [];
      for (const d of list) {
        const from = d.from ?? offsetOf(doc, d.line, d.column);
        const to = d.to ?? wordAt(doc, from);
        const severity = d.severity === 'error' ? 'error' : 'warning';
        diags.push({ from: Math.min(from, doc.length), to: Math.min(to, doc.length), severity,
          message: d.message || '' });
        marks.push({ at: doc.lineAt(Math.min(from, doc.length)).from, error: severity === 'error' });
      }
      marks.sort((x, y) => x.at - y.at || (y.error - x.error));
      const b = new RangeSetBuilder();
      let last = -1;
      for (const m of marks) if (m.at !== last) { b.add(m.at, m.at, m.error ? ERR : WARN); last = m.at; }
      const spec = lintSet(view.state, diags);
      view.dispatch({ ...spec, effects: [].concat(spec.effects || [], setLineMarks.of(b.finish())) });
    },
    revealLine(line, column) {
      const l = view.state.doc.line(Math.max(1, Math.min(line, view.state.doc.lines)));
      const selection = column ? { anchor: offsetOf(view.state.doc, line, column) }
        : { anchor: l.from, head: l.to };
      view.dispatch({ selection, effects: EditorView.scrollIntoView(l.from, { y: 'center' }) });
      view.focus();
    },
    setTheme(mode) {
      view.dispatch({ effects: theme.reconfigure(look(mode === 'dark')) });
    },
    focus() { view.focus(); },
    destroy() { o.flush(view); view.destroy(); docs.clear(); delete parent.kpgEditor; },
  };
  // The browser tests read the whole text here (the DOM holds only the lines on screen).
  parent.kpgEditor = api;
  return api;
}
