/** Small pure text helpers of the MCP tools. */
import { matchTokens, segmentTokens } from '../io/glob.js';

/** Code point order, as everywhere in docgate. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first line of a multi-line `error`. */
export function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  return nl === -1 ? text : text.slice(0, nl);
}

/**
 * A glob over ids, case-insensitive: `*` any run of characters, `?` one character, `[...]` a class
 * (`[!...]` negated, `a-f` ranges); every other character stands for itself. Matching is the classic
 * two-pointer wildcard walk — O(pattern × text), never the exponential backtracking a RegExp of many `.*`
 * can fall into (`*a*a*a*a*a*a*a*a*a*a*b` took 1.3 s per id as a RegExp). Throws on an invalid class range.
 */
export function compileGlob(glob: string): (text: string) => boolean {
  const tokens = segmentTokens(glob, true, true);
  // The path globs' walk, without their one rule for paths (a wildcard never matches a leading dot).
  return (text: string) => matchTokens(tokens, text, { nocase: true, dot: true });
}

/**
 * A body's lines as get_sysrs numbers them and update_document splices them: split at `\n` (a `\r`
 * before it stays with its line); a final newline does not start an extra line; no lines in "".
 */
export function bodyLines(body: string): string[] {
  if (body === '') return [];
  const lines = body.split('\n');
  if (body.endsWith('\n')) lines.pop();
  return lines;
}

export interface LineWindow {
  offset?: number;
  limit?: number;
  numbered: boolean;
}

/**
 * A raw read of a body (get_sysrs, docs/mcp-tools.md): without a window and numbering, the bytes exactly; else lines
 * `offset` (1-based, clamped up to 1) to `offset + limit - 1`, each ending with `\n`, optionally prefixed
 * `<n>: ` with absolute numbers. A final newline does not start an extra line. Offset past the end or
 * limit ≤ 0 → `""`.
 */
export function windowLines(body: string, w: LineWindow): string {
  if (w.offset === undefined && w.limit === undefined && !w.numbered) return body;
  const lines = bodyLines(body);
  const start = Math.max(1, w.offset ?? 1);
  if (w.limit !== undefined && w.limit <= 0) return '';
  if (start > lines.length) return '';
  const end = w.limit === undefined ? lines.length : Math.min(lines.length, start - 1 + w.limit);
  let out = '';
  for (let n = start; n <= end; n++) out += `${w.numbered ? `${n}: ` : ''}${lines[n - 1]}\n`;
  return out;
}
