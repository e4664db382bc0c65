/** Small pure text helpers of the MCP tools. */

/** `2156` → `2,156` (SPEC §4.4 list_frameworks). */
export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

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
 * A glob over ids, case-insensitive: `*` any run of characters, `?` one character, `[...]` a class;
 * every other character stands for itself.
 */
export function globToRegExp(glob: string): RegExp {
  let src = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') src += '.*';
    else if (c === '?') src += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) src += '\\[';
      else {
        let body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        src += `[${body}]`;
        i = end;
      }
    } else src += escapeRegExp(c);
  }
  return new RegExp(`^${src}$`, 'isu');
}

/** Escapes text for a literal RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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
