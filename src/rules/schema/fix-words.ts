/**
 * Fixes of the schema rules: a word of the file replaced where it is written. The schema layer knows
 * where a key or value starts; the text tells whether it is written there as parsed (a plain scalar,
 * or inside quotes), so that nothing else is ever replaced.
 */
import type { Pos } from '../../model/position.js';
import type { Fix } from '../../engine/rule.js';

/** Line `line` (1-based) of `text`, without its CR. */
function lineOf(text: string, line: number): string {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) return '';
    start = nl + 1;
  }
  const end = text.indexOf('\n', start);
  const raw = end === -1 ? text.slice(start) : text.slice(start, end);
  return raw.endsWith('\r') ? raw.slice(0, -1) : raw;
}

/** A fix writing `replacement` for `written` at `at` (or just inside a quote there), when the file has `written` there. */
export function replaceWritten(text: string | undefined, at: Pos, written: string, replacement: string): { fix: Fix } | undefined {
  if (text === undefined) return undefined;
  const raw = lineOf(text, at.line);
  let i = at.column - 1;
  if (raw.startsWith(written, i) === false && (raw[i] === "'" || raw[i] === '"')) i++;
  if (!raw.startsWith(written, i)) return undefined;
  return { fix: { line: at.line, column: i + 1, endLine: at.line, endColumn: i + 1 + written.length, text: replacement } };
}
