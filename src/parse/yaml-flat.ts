/**
 * A fast path for the frontmatter nearly every document has: one mapping of `key: value` lines whose
 * values are single-line strings, and the shapes agent skills add to it — a block scalar (`description:
 * >-` or `|`, then indented lines), one level of `key: value` lines under a key (`metadata:`), a list
 * of strings under a key (`allowed-tools:` then `- Read` lines). The `yaml` package stays the authority:
 * this reader accepts only text whose reading by the package it can state for certain (the same data,
 * the same positions, the same findings), and returns null for anything else — a number, a boolean, a
 * null, a comment, a tab, a list in brackets, an escape, a repeated key, a deeper level, a block scalar
 * with leading blank lines, trailing spaces, more-indented folded lines or a `+` or a digit in its
 * header, any character it does not know — which then goes to the package. test/yaml-flat.test.ts runs
 * both on every frontmatter of the generated corpora (the bench's and the skills') and the fixtures and
 * on seeded mutations of them, and asserts the same result (docs/decisions.md).
 *
 * Why: composing a document with the package cost a third of a cold lint's CPU, for text this simple;
 * in a repository of skills a quarter of the frontmatters have a folded description or a `metadata`
 * map, and those cost three quarters of the frontmatter time (docs/performance.md).
 */

/** A string value: where it starts (its quote or block header), where it ends (plain and quoted ones). */
export interface FlatString {
  t: 'string';
  value: string;
  at: number;
  /** Where a one-line value ends (its closing quote included). */
  end: number;
  /** A plain (unquoted) scalar: only these can be YAML 1.1 timestamps. */
  plain: boolean;
}

/** A value: a string, one level of `key: value` lines (starting at its first key), or a list of strings (at its first `-`). */
export type FlatValue = FlatString | { t: 'map'; at: number; entries: FlatEntry[] } | { t: 'seq'; at: number; items: FlatString[] };

/** One `key: value` of a mapping, by string offsets into the YAML text: its key, and its value (one object). */
export type FlatEntry = FlatValue & { key: string; keyAt: number };

/** A key the core schema reads as a string: a name, not `null`/`true`/`false` in any of their spellings. */
const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const KEY_NOT_STRING = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;

/**
 * Plain scalars the YAML 1.2 core schema resolves to something other than a string (its null, bool,
 * int and float tags, as the `yaml` package spells them): those go to the package.
 */
const PLAIN_NOT_STRING =
  /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;

/**
 * Characters no line of the fast path may hold: control characters (a tab included), DEL and the C1
 * controls, surrogates (paired or not), the byte order mark, the line and paragraph separators and the
 * non-characters U+FFFE/U+FFFF. The package's handling of each is left to the package.
 */
const ODD_CHAR = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/;

/**
 * The first character of a plain scalar that makes it something else, or that YAML reserves
 * (indicators: `- ? : , [ ] { } # & * ! | > ' " % @` and the backquote).
 */
const PLAIN_FIRST = /^[-?:,[\]{}#&*!|>'"%@`]/;

/** Block scalar headers read here: literal or folded, clipped or stripped (no `+`, no indentation digit). */
const BLOCK_HEADER = /^[|>]-?$/;

/**
 * Where the line at `start` ends: before its line break, a CR of a CRLF counted with the break (a CR
 * before no LF is not a line break: it stays in the line, where no value may hold it).
 */
function lineEnd(text: string, start: number): number {
  const nl = text.indexOf('\n', start);
  if (nl === -1) return text.length;
  return nl > start && text.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
}

/** Where the line after the one at `start` starts (the text's length after the last). */
function lineNext(text: string, start: number): number {
  const nl = text.indexOf('\n', start);
  return nl === -1 ? text.length : nl + 1;
}

/** Leading spaces of the line from `start` to `end`. */
function indentOf(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && text.charCodeAt(i) === 0x20) i++;
  return i - start;
}

/** The entries of `text` when it is a mapping of the shapes above, else null. */
export function readFlatYaml(text: string): FlatEntry[] | null {
  // One loop for the flat lines, the common case, as cheap as it can be before V8 optimizes it.
  const entries: FlatEntry[] = [];
  const keys = new Set<string>();
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const next = end + 1;
    // CRLF: that CR belongs to the line break (a CR before no LF is not one: left to the package).
    if (next <= text.length && end > start && text.charCodeAt(end - 1) === 0x0d) end--;
    if (end === start) {
      start = next; // an empty line
      continue;
    }
    const colon = text.indexOf(':', start);
    if (colon === -1 || colon >= end) return null;
    const key = text.slice(start, colon);
    if (!KEY.test(key) || KEY_NOT_STRING.test(key) || key === '__proto__' || keys.has(key)) return null;
    keys.add(key);
    // `key: value`, one or more spaces after the colon; `key:` alone is a mapping or a list below, or left to the package.
    let v = colon + 1;
    if (v < end && text.charCodeAt(v) !== 0x20) return null;
    while (v < end && text.charCodeAt(v) === 0x20) v++;
    if (v === end) {
      const nested = collection(text, next);
      if (nested === null) return null;
      entries.push({ ...nested.value, key, keyAt: start });
      start = nested.next;
      continue;
    }
    let e = end;
    while (e > v && text.charCodeAt(e - 1) === 0x20) e--;
    const first = text.charCodeAt(v);
    if (first === 0x7c || first === 0x3e) {
      // `|` or `>`: a block scalar's header, or a value left to the package.
      if (!BLOCK_HEADER.test(text.slice(v, e))) return null;
      const block = blockScalar(text, next, first === 0x3e, text.charCodeAt(v + 1) === 0x2d);
      if (block === null) return null;
      entries.push({ t: 'string', value: block.value, at: v, end: v, plain: false, key, keyAt: start });
      start = block.next;
      continue;
    }
    const raw = text.slice(v, e);
    if (ODD_CHAR.test(raw)) return null;
    const read = scalar(raw);
    if (read === null) return null;
    entries.push({ t: 'string', value: read.value, at: v, end: e, plain: read.plain, key, keyAt: start });
    start = next;
  }
  return entries.length === 0 ? null : entries;
}

function trimEnd(text: string, from: number, end: number): number {
  let e = end;
  while (e > from && text.charCodeAt(e - 1) === 0x20) e--;
  return e;
}

/**
 * `key: …` from `start` (no indentation) to `end`: the key, and where its value starts (one or more
 * spaces after the colon), or `rest: null` for `key:` with nothing after it but spaces.
 */
function keyValue(text: string, start: number, end: number): { key: string; rest: number | null } | null {
  const colon = text.indexOf(':', start);
  if (colon === -1 || colon >= end) return null;
  const key = text.slice(start, colon);
  if (!KEY.test(key) || KEY_NOT_STRING.test(key) || key === '__proto__') return null;
  let v = colon + 1;
  if (v < end && text.charCodeAt(v) !== 0x20) return null;
  while (v < end && text.charCodeAt(v) === 0x20) v++;
  return { key, rest: v === end ? null : v };
}

/** A one-line string value from `v` (no space there) to the end of its line, or null. */
function scalarAt(text: string, v: number, end: number): FlatString | null {
  const e = trimEnd(text, v, end);
  const raw = text.slice(v, e);
  if (ODD_CHAR.test(raw)) return null;
  const read = scalar(raw);
  return read === null ? null : { t: 'string', value: read.value, at: v, end: e, plain: read.plain };
}

/**
 * The indented lines below a `key:` line, from the line at `from`: all at one indentation, either `k:
 * value` lines (a mapping, indented at least one space) or `- value` lines (a list, which may also sit
 * at the key's own column). Ends at the first line of no indentation that is not a list item; null for
 * anything else.
 */
function collection(text: string, from: number): { value: FlatValue; next: number } | null {
  const firstEnd = lineEnd(text, from);
  if (from >= text.length || firstEnd === from) return null; // `key:` then nothing, or a blank line first: left to the package
  const indent = indentOf(text, from, firstEnd);
  const at = from + indent;
  const seq = text.startsWith('- ', at);
  if (!seq && indent === 0) return null; // `key:` alone: a null
  const entries: FlatEntry[] = [];
  const items: FlatString[] = [];
  const keys = new Set<string>();
  let start = from;
  for (; start < text.length; start = lineNext(text, start)) {
    const end = lineEnd(text, start);
    if (end === start) continue;
    const own = indentOf(text, start, end);
    const begin = start + own;
    if (own === 0 && !(seq && indent === 0 && text.startsWith('- ', begin))) break; // the next key of the outer mapping
    if (own !== indent) return null;
    if (seq) {
      if (!text.startsWith('- ', begin)) return null;
      let v = begin + 2;
      while (v < end && text.charCodeAt(v) === 0x20) v++;
      if (v === end) return null;
      const item = scalarAt(text, v, end);
      if (item === null) return null;
      items.push(item);
    } else {
      const pair = keyValue(text, begin, end);
      if (pair === null || pair.rest === null || keys.has(pair.key)) return null;
      keys.add(pair.key);
      const value = scalarAt(text, pair.rest, end);
      if (value === null) return null;
      entries.push({ ...value, key: pair.key, keyAt: begin });
    }
  }
  // A blank line before the outer mapping goes on is the outer mapping's (it holds nothing).
  return { value: seq ? { t: 'seq', at, items } : { t: 'map', at, entries }, next: start };
}

/**
 * The lines of a block scalar below its header (`|`, `|-`, `>`, `>-`), from the line at `from`: every
 * line indented by the first one's indentation (at least one space) or empty, up to the next line of
 * no indentation. Its value: literal lines as they are, folded ones joined by a space (a run of k empty
 * lines between two lines is k line breaks); a final line break unless `strip` (`-`). Null when the
 * package might read it otherwise (leading or whitespace-only blank lines, trailing spaces,
 * more-indented folded lines, a line less indented than the first, a last line without a line break).
 */
function blockScalar(text: string, from: number, folded: boolean, strip: boolean): { value: string; next: number } | null {
  const firstEnd = lineEnd(text, from);
  if (from >= text.length || firstEnd === from) return null;
  const indent = indentOf(text, from, firstEnd);
  if (indent === 0) return null; // an empty block scalar
  let blanks = 0;
  let value = '';
  let start = from;
  let last = from;
  for (; start < text.length; start = lineNext(text, start)) {
    const end = lineEnd(text, start);
    if (end === start) {
      blanks++;
      continue;
    }
    const own = indentOf(text, start, end);
    if (own === 0) break;
    if (own < indent || (folded && own > indent) || own === end - start || text.charCodeAt(end - 1) === 0x20) return null;
    const part = text.slice(start + indent, end);
    if (ODD_CHAR.test(part)) return null;
    if (start > from) value += folded && blanks === 0 ? ' ' : '\n'.repeat(folded ? blanks : blanks + 1);
    value += part;
    blanks = 0;
    last = start;
  }
  if (text.indexOf('\n', last) === -1) return null;
  return { value: strip ? value : `${value}\n`, next: start };
}

/** A one-line scalar (its quotes included) that is certainly a string: its value, and whether it is plain; null otherwise. */
function scalar(raw: string): { value: string; plain: boolean } | null {
  const first = raw.charCodeAt(0);
  if (first === 0x27 || first === 0x22) {
    // 'single' or "double": one quote character at each end and none between (no '' or \ escapes).
    const q = raw[0]!;
    if (raw.length < 2 || raw[raw.length - 1] !== q) return null;
    const inner = raw.slice(1, -1);
    if (inner.includes(q) || (first === 0x22 && inner.includes('\\'))) return null;
    return { value: inner, plain: false };
  }
  // A plain scalar: no indicator first, no `: ` (a nested mapping: an error) or ` #` (a comment) inside,
  // no `:` last, and not one the core schema reads as a null, boolean or number.
  if (PLAIN_FIRST.test(raw) || raw.includes(': ') || raw.includes(' #') || raw.endsWith(':') || PLAIN_NOT_STRING.test(raw)) return null;
  return { value: raw, plain: true };
}
