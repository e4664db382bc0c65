/**
 * A fast path for the frontmatter nearly every document has: one flat mapping of `key: value` lines
 * whose values are single-line strings. The `yaml` package stays the authority: this reader accepts
 * only text whose reading by the package it can state for certain (the same data, the same positions,
 * the same findings), and returns null for anything else — a number, a boolean, a null, a comment, an
 * indented line, a list, an escape, a repeated key, any character it does not know — which then goes to
 * the package. test/yaml-flat.test.ts runs both on every frontmatter of the generated corpus and the
 * fixtures and on seeded mutations of them, and asserts the same result (docs/decisions.md).
 *
 * Why: composing a document with the package cost a third of a cold lint's CPU, for text this simple.
 */

/** One `key: value` line of a flat mapping, by string offsets into the YAML text. */
export interface FlatEntry {
  key: string;
  keyAt: number;
  value: string;
  valueAt: number;
  /** Where the value ends (its closing quote included). */
  valueEnd: number;
  /** A plain (unquoted) scalar: only these can be YAML 1.1 timestamps. */
  plain: boolean;
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
 * Characters no value of the fast path may hold: control characters (a tab included), DEL and the C1
 * controls, surrogates (paired or not), the byte order mark, the line and paragraph separators and the
 * non-characters U+FFFE/U+FFFF. The package's handling of each is left to the package.
 */
const ODD_CHAR = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/;

/**
 * The first character of a plain scalar that makes it something else, or that YAML reserves
 * (indicators: `- ? : , [ ] { } # & * ! | > ' " % @` and the backquote).
 */
const PLAIN_FIRST = /^[-?:,[\]{}#&*!|>'"%@`]/;

/** The entries of `text` when it is a flat mapping of single-line string values, else null. */
export function readFlatYaml(text: string): FlatEntry[] | null {
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
    // `key: value`, one or more spaces after the colon; `key:` alone (a null, or a nested block) is not ours.
    let v = colon + 1;
    if (v >= end || text.charCodeAt(v) !== 0x20) return null;
    while (v < end && text.charCodeAt(v) === 0x20) v++;
    let e = end;
    while (e > v && text.charCodeAt(e - 1) === 0x20) e--;
    if (e === v) return null;
    const raw = text.slice(v, e);
    if (ODD_CHAR.test(raw)) return null;
    const read = scalar(raw);
    if (read === null) return null;
    keys.add(key);
    entries.push({ key, keyAt: start, value: read.value, valueAt: v, valueEnd: e, plain: read.plain });
    start = next;
  }
  return entries.length === 0 ? null : entries;
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
