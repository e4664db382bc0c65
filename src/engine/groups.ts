/**
 * Grouping for rules across files: documents by a key (a name, an id, a `store_as`), and how a message
 * names the other holders of a key.
 */
import type { Located } from '../core/analysis.js';
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

/** `a, b` — the other paths of a group, for "(also in …)". */
export function others(group: readonly { path: string }[], self: { path: string }): string {
  return group.filter((o) => o !== self).map((o) => o.path).join(', ');
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
