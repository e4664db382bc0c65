/**
 * Case-insensitive substring search in linear time, with the matches `new RegExp(escaped, 'giu')` found.
 * That RegExp took O(text × query): a 4,096-character query over three 2 MiB processes ran 8–17 s.
 * Here text and query are case-folded once (the text's fold is kept with its document), then searched
 * code unit by code unit.
 */

/**
 * Lower-case letters whose simple case folding (what a `u` RegExp ignoring case compares) is another
 * letter: `ſ` matches `s`, final `ς` matches `σ`, and so on. `toLowerCase` leaves them as they are.
 * The list is complete for the Unicode data of Node 20 (test/hardening-mcp.test.ts checks every code point).
 */
const FOLD_AGAIN: Readonly<Record<string, string>> = {
  '\u00b5': '\u03bc', // µ micro sign → μ
  '\u017f': 's', // ſ long s
  '\u0345': '\u03b9', // combining ypogegrammeni → ι
  '\u03c2': '\u03c3', // ς final sigma → σ
  '\u03d0': '\u03b2', // ϐ → β
  '\u03d1': '\u03b8', // ϑ → θ
  '\u03d5': '\u03c6', // ϕ → φ
  '\u03d6': '\u03c0', // ϖ → π
  '\u03f0': '\u03ba', // ϰ → κ
  '\u03f1': '\u03c1', // ϱ → ρ
  '\u03f5': '\u03b5', // ϵ → ε
  '\u1c80': '\u0432', // old Cyrillic letter forms → в д о с т т ъ ѣ ꙋ
  '\u1c81': '\u0434',
  '\u1c82': '\u043e',
  '\u1c83': '\u0441',
  '\u1c84': '\u0442',
  '\u1c85': '\u0442',
  '\u1c86': '\u044a',
  '\u1c87': '\u0463',
  '\u1c88': '\ua64b',
  '\u1e9b': '\u1e61', // ẛ → ṡ
  '\u1fbe': '\u03b9', // ι prosgegrammeni → ι
};
const FOLD_AGAIN_CHARS = new RegExp(`[${Object.keys(FOLD_AGAIN).join('')}]`, 'g');
const DOTTED_CAPITAL_I = '\u0130';

/**
 * The text case-folded as a `u` RegExp ignoring case compares it, with every character at the same
 * index (same length in UTF-16 code units), so a match's index is its index in the original text.
 */
export function foldCase(text: string): string {
  let lower = text.toLowerCase();
  // İ is the one letter whose lower case is longer (`i` and a combining dot); the RegExp matched it
  // only by itself, so it stays.
  if (lower.length !== text.length)
    lower = text
      .split(DOTTED_CAPITAL_I)
      .map((part) => part.toLowerCase())
      .join(DOTTED_CAPITAL_I);
  FOLD_AGAIN_CHARS.lastIndex = 0;
  return FOLD_AGAIN_CHARS.test(lower) ? lower.replace(FOLD_AGAIN_CHARS, (c) => FOLD_AGAIN[c]!) : lower;
}

const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;

/** Longer needles are searched with KMP: V8's indexOf needs O(text × needle) for some (1.7 s for one 4,096-unit needle). */
const INDEXOF_MAX_NEEDLE = 64;

export interface Occurrences {
  /** Index of the first match, -1 when none. */
  first: number;
  /** Matches found, left to right without overlapping, counted up to the limit asked for. */
  count: number;
}

/**
 * Occurrences of a (folded, non-empty) needle in a folded text, as a `u` RegExp finds them: never
 * starting or ending inside a surrogate pair. Stops counting at `limit`.
 */
export function occurrences(text: string, needle: string, limit: number): Occurrences {
  const m = needle.length;
  const splitsPair = (at: number) =>
    (at > 0 && isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1))) || (isHigh(text.charCodeAt(at + m - 1)) && isLow(text.charCodeAt(at + m)));
  const out: Occurrences = { first: -1, count: 0 };
  const found = (at: number): boolean => {
    if (out.first === -1) out.first = at;
    return ++out.count >= limit;
  };
  if (m <= INDEXOF_MAX_NEEDLE) {
    for (let at = text.indexOf(needle); at !== -1; ) {
      if (splitsPair(at)) at = text.indexOf(needle, at + 1);
      else if (found(at)) break;
      else at = text.indexOf(needle, at + m);
    }
    return out;
  }
  // Knuth–Morris–Pratt: `border[i]` is the longest proper border of needle[0..i].
  const border = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = border[k - 1]!;
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k++;
    border[i] = k;
  }
  for (let i = 0, k = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    while (k > 0 && c !== needle.charCodeAt(k)) k = border[k - 1]!;
    if (c === needle.charCodeAt(k)) k++;
    if (k < m) continue;
    const at = i - m + 1;
    if (splitsPair(at)) {
      k = border[m - 1]!; // not a match here: an overlapping one may still start inside it
      continue;
    }
    if (found(at)) break;
    k = 0; // the next match starts after this one
  }
  return out;
}
