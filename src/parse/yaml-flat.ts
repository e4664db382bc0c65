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

/** One `key: value` of a mapping, by string offsets into the YAML text. */
export interface FlatEntry {
  key: string;
  keyAt: number;
  value: FlatValue;
}

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

/** The lines of a text: where each starts and ends (its CR of a CRLF left out; a CR before no LF is not a line break, and stays in the line). */
function linesOf(text: string): { start: number; end: number; broken: boolean }[] {
  const out: { start: number; end: number; broken: boolean }[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    const broken = end !== -1;
    if (end === -1) end = text.length;
    const next = end + 1;
    if (broken && end > start && text.charCodeAt(end - 1) === 0x0d) end--;
    out.push({ start, end, broken });
    start = next;
  }
  return out;
}

/** Leading spaces of a line. */
function indentOf(text: string, line: { start: number; end: number }): number {
  let i = line.start;
  while (i < line.end && text.charCodeAt(i) === 0x20) i++;
  return i - line.start;
}

/** The entries of `text` when it is a mapping of the shapes above, else null. */
export function readFlatYaml(text: string): FlatEntry[] | null {
  const lines = linesOf(text);
  const entries: FlatEntry[] = [];
  const keys = new Set<string>();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.end === line.start) {
      i++; // an empty line
      continue;
    }
    const pair = keyValue(text, line.start, line.end);
    if (pair === null || keys.has(pair.key)) return null;
    keys.add(pair.key);
    i++;
    if (pair.rest === null) {
      // `key:` alone: a mapping or a list of strings on the lines below.
      const nested = collection(text, lines, i);
      if (nested === null) return null;
      entries.push({ key: pair.key, keyAt: line.start, value: nested.value });
      i = nested.next;
      continue;
    }
    const raw = text.slice(pair.rest, trimEnd(text, pair.rest, line.end));
    if (BLOCK_HEADER.test(raw)) {
      const block = blockScalar(text, lines, i, raw);
      if (block === null) return null;
      entries.push({ key: pair.key, keyAt: line.start, value: { t: 'string', value: block.value, at: pair.rest, end: pair.rest, plain: false } });
      i = block.next;
      continue;
    }
    const value = scalarAt(text, pair.rest, line.end);
    if (value === null) return null;
    entries.push({ key: pair.key, keyAt: line.start, value });
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
 * The indented lines below a `key:` line, from line `i`: all at one indentation, either `k: value` lines
 * (a mapping, indented at least one space) or `- value` lines (a list, which may also sit at the key's
 * own column). Ends at the first line of no indentation that is not a list item; null for anything else.
 */
function collection(text: string, lines: readonly { start: number; end: number }[], i: number): { value: FlatValue; next: number } | null {
  const first = lines[i];
  if (first === undefined || first.end === first.start) return null; // `key:` then nothing, or a blank line first: left to the package
  const indent = indentOf(text, first);
  const at = first.start + indent;
  const seq = text.startsWith('- ', at);
  if (!seq && indent === 0) return null; // `key:` alone: a null
  const entries: FlatEntry[] = [];
  const items: FlatString[] = [];
  const keys = new Set<string>();
  let n = i;
  for (; n < lines.length; n++) {
    const line = lines[n]!;
    if (line.end === line.start) continue;
    const own = indentOf(text, line);
    const start = line.start + own;
    if (own === 0 && !(seq && indent === 0 && text.startsWith('- ', start))) break; // the next key of the outer mapping
    if (own !== indent) return null;
    if (seq) {
      if (!text.startsWith('- ', start)) return null;
      let v = start + 2;
      while (v < line.end && text.charCodeAt(v) === 0x20) v++;
      if (v === line.end) return null;
      const item = scalarAt(text, v, line.end);
      if (item === null) return null;
      items.push(item);
    } else {
      const pair = keyValue(text, start, line.end);
      if (pair === null || pair.rest === null || keys.has(pair.key)) return null;
      keys.add(pair.key);
      const raw = text.slice(pair.rest, trimEnd(text, pair.rest, line.end));
      if (BLOCK_HEADER.test(raw)) return null;
      const value = scalarAt(text, pair.rest, line.end);
      if (value === null) return null;
      entries.push({ key: pair.key, keyAt: start, value });
    }
  }
  // A blank line before the outer mapping goes on is the outer mapping's (it holds nothing).
  return { value: seq ? { t: 'seq', at, items } : { t: 'map', at, entries }, next: n };
}

/**
 * The lines of a block scalar below its header (`|`, `|-`, `>`, `>-`), from line `i`: every line
 * indented by the first one's indentation (at least one space) or empty, up to the next line of no
 * indentation. Its value: literal lines as they are, folded ones joined by a space (a run of k empty
 * lines between two lines is k line breaks); a final line break unless `-`. Null when the package
 * might read it otherwise (leading or whitespace-only blank lines, trailing spaces, more-indented
 * folded lines, a line less indented than the first, a last line without a line break).
 */
function blockScalar(
  text: string,
  lines: readonly { start: number; end: number; broken: boolean }[],
  i: number,
  header: string,
): { value: string; next: number } | null {
  const first = lines[i];
  if (first === undefined || first.end === first.start) return null;
  const indent = indentOf(text, first);
  if (indent === 0) return null; // an empty block scalar
  const folded = header[0] === '>';
  let blanks = 0;
  let value = '';
  let n = i;
  let last = i;
  for (; n < lines.length; n++) {
    const line = lines[n]!;
    if (line.end === line.start) {
      blanks++;
      continue;
    }
    const own = indentOf(text, line);
    if (own === 0) break;
    if (own < indent || (folded && own > indent) || own === line.end - line.start) return null;
    if (text.charCodeAt(line.end - 1) === 0x20) return null;
    const part = text.slice(line.start + indent, line.end);
    if (ODD_CHAR.test(part)) return null;
    if (n > i) value += folded && blanks === 0 ? ' ' : '\n'.repeat(folded ? blanks : blanks + 1);
    value += part;
    blanks = 0;
    last = n;
  }
  if (!lines[last]!.broken) return null;
  return { value: header.endsWith('-') ? value : `${value}\n`, next: n };
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
