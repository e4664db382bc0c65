import type { Analysis } from '../model/analysis.js';
import { diag } from '../model/position.js';
import type { Diagnostic } from '../model/types.js';
import type { AnyKind } from './kind.js';
import { unexpected } from './rule.js';
import type { FactsEntry } from './rule.js';
import type { SeverityOf } from './rule.js';

/** The analyses of one kind as its rules across files see them, in path order. */
function entriesOf(analyses: readonly Analysis[], kind: string): FactsEntry<unknown>[] {
  // An analysis is a FactsEntry (path, id, facts): no copy per file.
  const list: FactsEntry<unknown>[] = analyses.filter((a) => a.kind === kind);
  // Lint passes analyses in path order already; sort only what is not.
  for (let i = 1; i < list.length; i++) if (list[i - 1]!.path > list[i]!.path) return list.sort((a, b) => (a.path < b.path ? -1 : 1));
  return list;
}

/**
 * The rules across files of each kind (placeholders, duplicate names and ids, variants: docs/formats.md) over
 * the facts of its documents: diagnostics by path, for every file in `analyses`.
 */
export function crossFileDiagnostics(
  kinds: readonly AnyKind[],
  analyses: readonly Analysis[],
  severityFor?: (path: string) => SeverityOf,
): Map<string, Diagnostic[]> {
  const out = new Map<string, Diagnostic[]>();
  const present = new Set(analyses.map((a) => a.kind));
  for (const kind of kinds) {
    if (kind.crossFile.length === 0 || !present.has(kind.name)) continue;
    const list = entriesOf(analyses, kind.name);
    for (const rule of kind.crossFile) {
      rule.checkAll(list, (path, at, found, expected) => {
        const level = severityFor?.(path)(rule.id) ?? 'error';
        if (level === 'off') return;
        const d = diag(at, rule.id, unexpected(found, expected));
        if (level === 'warning') d.severity = 'warning';
        const own = out.get(path);
        if (own) own.push(d);
        else out.set(path, [d]);
      });
    }
  }
  return out;
}
