import type { Analysis, Facts, Located } from './analysis.js';
import { diag, quote } from './position.js';
import type { Diagnostic } from './types.js';
import { unexpected } from '../engine/rule.js';
import { BUILTIN_KINDS } from '../kinds/index.js';

type FactsOf<K extends Facts['kind']> = Extract<Facts, { kind: K }>;
interface Entry<K extends Facts['kind']> {
  path: string;
  id: string;
  facts: FactsOf<K>;
}

class Findings {
  readonly byPath = new Map<string, Diagnostic[]>();
  add(path: string, d: Diagnostic): void {
    const list = this.byPath.get(path);
    if (list) list.push(d);
    else this.byPath.set(path, [d]);
  }
}

function entries<K extends Facts['kind']>(analyses: readonly Analysis[], kind: K): Entry<K>[] {
  // An analysis of this kind is an Entry<K> (its facts are of kind K): no copy per file.
  const list = analyses.filter((a) => a.facts.kind === kind) as unknown as Entry<K>[];
  // Lint passes analyses in path order already; sort only what is not.
  for (let i = 1; i < list.length; i++) if (list[i - 1]!.path > list[i]!.path) return list.sort((a, b) => (a.path < b.path ? -1 : 1));
  return list;
}

/** Items by key; a key held by one item maps to the item itself (no array for each of 5,000 unique names). */
type Groups<T> = Map<string, T | T[]>;

function groupBy<T extends object>(items: readonly T[], key: (t: T) => string | null): Groups<T> {
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

function members<T>(found: T | T[] | undefined): T[] {
  return found === undefined ? [] : Array.isArray(found) ? found : [found];
}

/** Reports every member of a group of more than one, naming the others. */
function reportDuplicates<T extends { path: string }>(groups: Groups<T>, at: (t: T) => Located<string>, report: (t: T, v: Located<string>, others: string) => Diagnostic, out: Findings): void {
  for (const group of groups.values()) {
    if (!Array.isArray(group)) continue;
    for (const t of group) {
      const others = group.filter((o) => o !== t).map((o) => o.path).join(', ');
      out.add(t.path, report(t, at(t), others));
    }
  }
}

/** Rules that need more than one file (SPEC §2): diagnostics by path, for every file in `analyses`. */
export function crossFileDiagnostics(analyses: readonly Analysis[]): Map<string, Diagnostic[]> {
  const out = new Findings();
  for (const kind of BUILTIN_KINDS) {
    const list = entries(analyses, kind.name as Facts['kind']);
    for (const rule of kind.crossFile) rule.checkAll(list, (path, at, found, expected) => out.add(path, diag(at, rule.id, unexpected(found, expected))));
  }
  return out.byPath;
}
