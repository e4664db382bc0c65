/** Pieces of the lint cache's compact rows for facts: located values, checked when read back. */
import type { Located } from '../core/analysis.js';

export type LocatedRow = [value: string, line: number, column: number] | 0;

export function locatedRow(l: Located<string> | null): LocatedRow {
  return l ? [l.value, l.line, l.column] : 0;
}

/** A position read from a cache row: a positive integer no larger than any real file could need. */
export function isPosition(n: unknown): n is number {
  return Number.isSafeInteger(n) && (n as number) >= 1 && (n as number) <= 1e9;
}

/** A located value from its row; undefined when the row is not one (a damaged cache). */
export function locatedOf(r: unknown): Located<string> | null | undefined {
  if (r === 0) return null;
  if (!Array.isArray(r) || r.length !== 3) return undefined;
  const [value, line, column] = r as unknown[];
  return typeof value === 'string' && isPosition(line) && isPosition(column) ? { value, line, column } : undefined;
}
