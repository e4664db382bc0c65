/** Small pure text helpers of the MCP tools. */

/** Code point order, as everywhere in docgate. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first line of a multi-line `error`. */
export function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  return nl === -1 ? text : text.slice(0, nl);
}

type GlobToken =
  | { kind: 'star' }
  | { kind: 'any' }
  | { kind: 'char'; c: string }
  | { kind: 'class'; negate: boolean; singles: Set<string>; ranges: [number, number][] };

function classMatches(t: Extract<GlobToken, { kind: 'class' }>, c: string): boolean {
  const hit = (x: string) => t.singles.has(x) || t.ranges.some(([lo, hi]) => x.codePointAt(0)! >= lo && x.codePointAt(0)! <= hi);
  const found = hit(c) || hit(c.toLowerCase()) || hit(c.toUpperCase());
  return t.negate ? !found : found;
}

function tokenMatches(t: GlobToken, c: string): boolean {
  switch (t.kind) {
    case 'any': return true;
    case 'char': return t.c === c;
    case 'class': return classMatches(t, c);
    case 'star': return false;
  }
}

/**
 * A glob over ids, case-insensitive: `*` any run of characters, `?` one character, `[...]` a class
 * (`[!...]` negated, `a-f` ranges); every other character stands for itself. Matching is the classic
 * two-pointer wildcard walk — O(pattern × text), never the exponential backtracking a RegExp of many `.*`
 * can fall into (`*a*a*a*a*a*a*a*a*a*a*b` took 1.3 s per id as a RegExp). Throws on an invalid class range.
 */
export function compileGlob(glob: string): (text: string) => boolean {
  const chars = Array.from(glob);
  const tokens: GlobToken[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[' && chars.indexOf(']', i + 2) !== -1) {
      const end = chars.indexOf(']', i + 2);
      let body = chars.slice(i + 1, end);
      const negate = body[0] === '!' || body[0] === '^';
      if (negate) body = body.slice(1);
      const singles = new Set<string>();
      const ranges: [number, number][] = [];
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === '-' && k + 2 < body.length) {
          const lo = body[k]!.codePointAt(0)!;
          const hi = body[k + 2]!.codePointAt(0)!;
          if (lo > hi) throw new Error(`invalid range ${body[k]}-${body[k + 2]}`);
          ranges.push([lo, hi]);
          k += 2;
        } else singles.add(body[k]!);
      }
      tokens.push({ kind: 'class', negate, singles, ranges });
      i = end;
    } else tokens.push({ kind: 'char', c: c.toLowerCase() });
  }
  return (text: string) => {
    const s = Array.from(text.toLowerCase());
    let p = 0;
    let i = 0;
    let starP = -1;
    let starI = 0;
    while (i < s.length) {
      const t = tokens[p];
      if (t && t.kind !== 'star' && tokenMatches(t, s[i]!)) {
        p++;
        i++;
      } else if (t && t.kind === 'star') {
        starP = p++;
        starI = i;
      } else if (starP !== -1) {
        p = starP + 1;
        i = ++starI;
      } else return false;
    }
    while (tokens[p]?.kind === 'star') p++;
    return p === tokens.length;
  };
}

export interface LineWindow {
  offset?: number;
  limit?: number;
  numbered: boolean;
}

/**
 * A raw read of a body (SPEC §4.4): without a window and numbering, the bytes exactly; else lines
 * `offset` (1-based, clamped up to 1) to `offset + limit - 1`, each ending with `\n`, optionally prefixed
 * `<n>: ` with absolute numbers. A final newline does not start an extra line. Offset past the end or
 * limit ≤ 0 → `""`.
 */
export function windowLines(body: string, w: LineWindow): string {
  if (w.offset === undefined && w.limit === undefined && !w.numbered) return body;
  if (body === '') return '';
  const lines = body.split('\n');
  if (body.endsWith('\n')) lines.pop();
  const start = Math.max(1, w.offset ?? 1);
  if (w.limit !== undefined && w.limit <= 0) return '';
  if (start > lines.length) return '';
  const end = w.limit === undefined ? lines.length : Math.min(lines.length, start - 1 + w.limit);
  let out = '';
  for (let n = start; n <= end; n++) out += `${w.numbered ? `${n}: ` : ''}${lines[n - 1]}\n`;
  return out;
}
