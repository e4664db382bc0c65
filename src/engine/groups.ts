/**
 * Grouping for rules across files: documents by a key (a name, an id, a `store_as`), and how a message
 * names the other holders of a key.
 */
import type { Located } from '../model/analysis.js';
import { formatBytes } from '../model/text.js';
import type { FactsEntry, ReportAt } from './rule.js';

/** Items by key; a key held by one item maps to the item itself (no array for each of 5,000 unique names). */
export type Groups<T> = Map<string, T | T[]>;

export function groupBy<T extends object>(items: readonly T[], key: (t: T) => string | null): Groups<T> {
  const out: Groups<T> = new Map();
  for (const item of items) {
    const k = key(item);
    if (k === null) continue;
    const found = out.get(k);
    if (found === undefined) out.set(k, item);
    else if (Array.isArray(found)) found.push(item);
    else out.set(k, [found, item]);
  }
  return out;
}

export function members<T>(found: T | T[] | undefined): T[] {
  return found === undefined ? [] : Array.isArray(found) ? found : [found];
}

/** At most this many others are named in a cross-file message; the rest are counted (4,000 alike files). */
export const MAX_NAMED = 3;

/** `a, b, c`, or `a, b, c and 3,996 more`: the members of `group` other than `self`, in path order. */
export function others(group: readonly { path: string }[], self: { path: string }): string {
  const named: string[] = [];
  for (const o of group) {
    if (o === self) continue;
    if (named.length === MAX_NAMED) break;
    named.push(o.path);
  }
  const more = group.length - 1 - named.length;
  return more > 0 ? `${named.join(', ')} and ${formatBytes(more)} more` : named.join(', ');
}

/**
 * Reports every member of each group of more than one at the located value `at` gives it, naming the others:
 * `found(value)` and `expected(others)` make the two halves of the message.
 */
export function reportDuplicates<F>(
  entries: readonly FactsEntry<F>[],
  at: (f: F) => Located<string> | null,
  key: (v: Located<string>) => string,
  found: (v: Located<string>) => string,
  expected: (others: string) => string,
  report: ReportAt,
): void {
  const groups = groupBy(entries, (e) => {
    const v = at(e.facts);
    return v === null ? null : key(v);
  });
  for (const group of groups.values()) {
    if (!Array.isArray(group)) continue;
    for (const e of group) {
      const v = at(e.facts)!;
      report(e.path, v, found(v), expected(others(group, e)));
    }
  }
}
