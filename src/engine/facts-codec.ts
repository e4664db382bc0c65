/** Pieces of the lint cache's compact rows for facts: located values, checked when read back. */
import type { Located } from '../model/analysis.js';

export type LocatedRow = [value: string, line: number, column: number] | 0;

export function locatedRow(l: Located<string> | null): LocatedRow {
  return l ? [l.value, l.line, l.column] : 0;
}

/** Larger than any line or column of a document docgate reads (at most 2 MiB). */
export const MAX_POSITION = 4 * 1024 * 1024;

/** A whole number from 1 to MAX_POSITION (`v | 0` is v itself only for a number that is a 32-bit integer). */
export function isPosition(v: unknown): v is number {
  return v === ((v as number) | 0) && (v as number) >= 1 && (v as number) <= MAX_POSITION;
}

/** A located value from its row; undefined when the row is not one (a damaged cache). */
export function locatedOf(r: unknown): Located<string> | null | undefined {
  if (r === 0) return null;
  if (!Array.isArray(r) || r.length !== 3) return undefined;
  // Indexed reads, not destructuring: this runs per cache row, mostly before V8 optimizes it, and array
  // destructuring goes through the iterator protocol there.
  const value: unknown = r[0];
  const line: unknown = r[1];
  const column: unknown = r[2];
  return typeof value === 'string' && isPosition(line) && isPosition(column) ? { value, line, column } : undefined;
}
