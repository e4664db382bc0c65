import type { Analysis, Facts, Located } from './analysis.js';
import { diag, quote } from './position.js';
import type { Diagnostic } from './types.js';

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

function templateRules(list: Entry<'template'>[], out: Findings): void {
  const owners = groupBy(list, (t) => t.facts.storeAs?.value ?? null);
  reportDuplicates(owners, (t) => t.facts.storeAs!, (_t, v, others) => diag(v, 'template-duplicate-store-as', `Unexpected duplicate store_as ${quote(v.value)}, expected it unique (also in ${others})`), out);

  // Placeholder graph: template → templates whose store_as it names.
  const edges = new Map<string, { to: Entry<'template'>; at: Located<string> }[]>();
  for (const t of list) {
    const own: { to: Entry<'template'>; at: Located<string> }[] = [];
    for (const p of t.facts.placeholders) {
      const targets = members(owners.get(p.value));
      if (targets.length === 0) {
        out.add(t.path, diag(p, 'template-placeholder', `Unexpected placeholder \`{{${p.value}}}\` that no template stores, expected the \`store_as\` of another template`));
        continue;
      }
      for (const to of targets) own.push({ to, at: p });
    }
    edges.set(t.path, own);
  }
  for (const t of list) {
    const cycle = shortestCycle(t, edges);
    if (cycle) out.add(t.path, diag(cycle.at, 'template-placeholder-cycle', `Unexpected placeholder cycle ${cycle.names.join(' → ')}, expected templates to reference each other without a cycle`));
  }
}

/** The shortest path of placeholder references from `start` back to itself, if any (breadth first). */
function shortestCycle(start: Entry<'template'>, edges: Map<string, { to: Entry<'template'>; at: Located<string> }[]>): { at: Located<string>; names: string[] } | null {
  const firstEdges = edges.get(start.path) ?? [];
  for (const first of firstEdges) {
    if (first.to.path === start.path) return { at: first.at, names: [start.id, start.id] };
  }
  const prev = new Map<string, Entry<'template'>>();
  const queue: Entry<'template'>[] = [];
  const firstAt = new Map<string, Located<string>>();
  for (const e of firstEdges) {
    if (!prev.has(e.to.path)) {
      prev.set(e.to.path, start);
      firstAt.set(e.to.path, e.at);
      queue.push(e.to);
    }
  }
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const e of edges.get(node.path) ?? []) {
      if (e.to.path === start.path) {
        const names = [start.id];
        let cur: Entry<'template'> | undefined = node;
        const chain: string[] = [];
        let head = node;
        while (cur && cur !== start) {
          chain.unshift(cur.id);
          head = cur;
          cur = prev.get(cur.path);
        }
        names.push(...chain, start.id);
        return { at: firstAt.get(head.path)!, names };
      }
      if (!prev.has(e.to.path)) {
        prev.set(e.to.path, node);
        queue.push(e.to);
      }
    }
  }
  return null;
}

function processRules(list: Entry<'process'>[], out: Findings): void {
  const groups = groupBy(list, (p) => p.facts.name?.value.toLowerCase() ?? null);
  reportDuplicates(groups, (p) => p.facts.name!, (_p, v, others) => diag(v, 'process-duplicate-name', `Unexpected duplicate process name ${quote(v.value)}, expected names unique ignoring case (also in ${others})`), out);
}

function sysrsRules(list: Entry<'sysrs'>[], out: Findings): void {
  const english = list.filter((s) => s.facts.lang === null);
  reportDuplicates(groupBy(english, (s) => s.facts.id?.value ?? null), (s) => s.facts.id!, (_s, v, others) => diag(v, 'sysrs-duplicate-id', `Unexpected duplicate id ${quote(v.value)}, expected ids unique across documents (also in ${others})`), out);
  const byPath = new Map(english.map((s) => [s.path, s]));
  for (const v of list) {
    if (v.facts.lang === null) continue;
    const sourcePath = `docs/sysrs/${v.facts.file}`;
    const source = byPath.get(sourcePath);
    if (!source) {
      out.add(v.path, diag({ line: 1, column: 1 }, 'sysrs-variant-source', `Unexpected language variant without an English source, expected ${sourcePath}`));
    } else if (v.facts.id && source.facts.id && v.facts.id.value !== source.facts.id.value) {
      out.add(v.path, diag(v.facts.id, 'sysrs-variant-id', `Unexpected id ${quote(v.facts.id.value)}, expected the id of ${sourcePath} \`${source.facts.id.value}\``));
    }
  }
}

/** Rules that need more than one file (SPEC §2): diagnostics by path, for every file in `analyses`. */
export function crossFileDiagnostics(analyses: readonly Analysis[]): Map<string, Diagnostic[]> {
  const out = new Findings();
  templateRules(entries(analyses, 'template'), out);
  processRules(entries(analyses, 'process'), out);
  sysrsRules(entries(analyses, 'sysrs'), out);
  return out.byPath;
}
