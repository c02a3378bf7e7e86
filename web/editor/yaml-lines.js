// The page's YAML colouring (web/src/editor/highlight.rs, a line tokenizer) as a CodeMirror
// StreamLanguage: the same colours as today, and a keystroke re-tokenizes only the edited line
// (CodeMirror caches the tokenizer state per line), where Lezer's YAML grammar re-parses far
// more of a long document. No folding, no syntax tree for YAML structure: the page needs none.
import { StreamLanguage } from '@codemirror/language';

const BOOL = /^(true|false|True|False|null|~|yes|no)$/;

/** Length of the `key` before a `:` that ends a key at `s`'s start, or -1 (highlight.rs key_end). */
function keyEnd(s) {
  const first = s[0];
  if (first === '"' || first === "'") {
    const close = s.indexOf(first, 1);
    return close > 0 && s[close + 1] === ':' && (s.length === close + 2 || s[close + 2] === ' ') ? close + 1 : -1;
  }
  if (!s || '{[&*|>!%@`'.includes(first)) return -1;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === ':' && (i + 1 === s.length || s[i + 1] === ' ')) return i;
    if (s[i] === ' ' && s[i + 1] === '#') return -1;
  }
  return -1;
}

function quotedLen(s) {
  const q = s[0];
  for (let i = 1, esc = false; i < s.length; i++) {
    if (q === '"' && s[i] === '\\' && !esc) { esc = true; continue; }
    if (s[i] === q && !esc) return i + 1;
    esc = false;
  }
  return s.length;
}

function scalarLen(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (i > 0 && ',[]{}'.includes(c)) return i;
    if (i > 0 && c === ':' && (i + 1 === s.length || ' ,}'.includes(s[i + 1]))) return i;
    if (c === ' ' && s[i + 1] === '#') return Math.max(s.slice(0, i).trimEnd().length, 1);
  }
  return Math.max(s.trimEnd().length, 1);
}

export const yamlLines = StreamLanguage.define({
  name: 'yaml',
  startState: () => ({ head: true }),
  copyState: (s) => ({ head: s.head }),
  token(stream, state) {
    if (stream.sol()) {
      state.head = true;
      if (stream.match(/^(---|\.\.\.)/)) { stream.skipToEnd(); return 'meta'; }
    }
    if (stream.eatSpace()) return null;
    const rest = stream.string.slice(stream.pos);
    if (rest[0] === '#') { stream.skipToEnd(); return 'comment'; }
    if (state.head) {
      if (rest === '-' || rest.startsWith('- ')) { stream.next(); return 'punctuation'; }
      state.head = false;
      const end = keyEnd(rest);
      if (end > 0) { stream.pos += end; return 'propertyName'; }
    }
    const c = rest[0];
    if (c === '"' || c === "'") { stream.pos += quotedLen(rest); return 'string'; }
    if ('{}[],:|>'.includes(c)) { stream.next(); return 'punctuation'; }
    if ('&*!'.includes(c)) {
      const m = /[ ,\]}]/.exec(rest);
      stream.pos += m ? Math.max(m.index, 1) : rest.length;
      return 'labelName';
    }
    const n = scalarLen(rest);
    stream.pos += n;
    const word = rest.slice(0, n).trimEnd();
    if (rest[n] === ':') return 'propertyName';
    if (BOOL.test(word)) return 'bool';
    if (word !== '' && !Number.isNaN(Number(word))) return 'number';
    return 'string';
  },
  languageData: { commentTokens: { line: '#' } },
});
