import type { Analysis, Facts, Located } from './analysis.js';
import { diag, quote } from './position.js';
import { formatBytes } from './text.js';
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

/** At most this many others are named in a cross-file message; the rest are counted (4,000 alike files). */
const MAX_NAMED = 3;

/** `a, b, c`, or `a, b, c and 3,996 more`: the members of `group` other than `self`, in path order. */
function othersText<T extends { path: string }>(group: readonly T[], self: T): string {
  const named: string[] = [];
  for (const o of group) {
    if (o === self) continue;
    if (named.length === MAX_NAMED) break;
    named.push(o.path);
  }
  const more = group.length - 1 - named.length;
  return more > 0 ? `${named.join(', ')} and ${formatBytes(more)} more` : named.join(', ');
}

/** Reports every member of a group of more than one, naming (some of) the others. */
function reportDuplicates<T extends { path: string }>(groups: Groups<T>, at: (t: T) => Located<string>, report: (t: T, v: Located<string>, others: string) => Diagnostic, out: Findings): void {
  for (const group of groups.values()) {
    if (!Array.isArray(group)) continue;
    for (const t of group) out.add(t.path, report(t, at(t), othersText(group, t)));
  }
}

/** A placeholder reference from one template to another (by index in the template list). */
interface Edge {
  to: number;
  /** The first placeholder of the template that names the target. */
  at: Located<string>;
}

function templateRules(list: Entry<'template'>[], out: Findings): void {
  const owners = groupBy(list, (t) => t.facts.storeAs?.value ?? null);
  reportDuplicates(owners, (t) => t.facts.storeAs!, (_t, v, others) => diag(v, 'template-duplicate-store-as', `Unexpected duplicate store_as ${quote(v.value)}, expected it unique (also in ${others})`), out);

  // Placeholder graph: template → templates whose store_as it names, one edge per pair (a template may
  // name the same store_as a thousand times, and three hundred templates may share it). A target has one
  // store_as, so the first placeholder of each distinct name gives every edge, in first-occurrence order.
  const index = new Map(list.map((t, i) => [t, i]));
  const edges: Edge[][] = list.map((t) => {
    const own: Edge[] = [];
    const named = new Set<string>();
    for (const p of t.facts.placeholders) {
      const targets = owners.get(p.value);
      if (targets === undefined) {
        out.add(t.path, diag(p, 'template-placeholder', `Unexpected placeholder \`{{${p.value}}}\` that no template stores, expected the \`store_as\` of another template`));
        continue;
      }
      if (named.has(p.value)) continue;
      named.add(p.value);
      for (const to of members(targets)) own.push({ to: index.get(to)!, at: p });
    }
    return own;
  });
  const component = cyclicComponents(edges);
  const search = new CycleSearch(edges, component);
  list.forEach((t, i) => {
    if (component[i]! < 0) return;
    const cycle = search.shortest(i);
    if (!cycle) return;
    const names = cycleText(cycle.path.map((k) => list[k]!.id));
    out.add(t.path, diag(cycle.at, 'template-placeholder-cycle', `Unexpected placeholder cycle ${names}, expected templates to reference each other without a cycle`));
  });
}

/** `a → b → c → a`; past MAX_NAMED others, `a → b → c → d → … → a (and 3,996 more)`. */
function cycleText(ids: readonly string[]): string {
  // ids: the start, the others in cycle order, the start again.
  const others = ids.length - 2;
  if (others <= MAX_NAMED) return ids.join(' → ');
  return `${ids.slice(0, MAX_NAMED + 1).join(' → ')} → … → ${ids[0]} (and ${formatBytes(others - MAX_NAMED)} more)`;
}

/**
 * Strongly connected components (Tarjan, without recursion: a chain of 10,000 templates is fine).
 * Returns, per node, its component's number when a cycle can pass through it (a component of more
 * than one node, or a node that names itself), else -1: only those nodes need a cycle search.
 */
function cyclicComponents(edges: readonly Edge[][]): Int32Array {
  const n = edges.length;
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const component = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  const frames: { node: number; next: number }[] = [];
  let counter = 0;
  let components = 0;
  for (let root = 0; root < n; root++) {
    if (order[root] !== -1) continue;
    frames.push({ node: root, next: 0 });
    order[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const v = frame.node;
      const out = edges[v]!;
      if (frame.next < out.length) {
        const w = out[frame.next++]!.to;
        if (order[w] === -1) {
          order[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          frames.push({ node: w, next: 0 });
        } else if (onStack[w]) {
          low[v] = Math.min(low[v]!, order[w]!);
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low[parent.node] = Math.min(low[parent.node]!, low[v]!);
      if (low[v] !== order[v]) continue;
      const members: number[] = [];
      let w: number;
      do {
        w = stack.pop()!;
        onStack[w] = 0;
        members.push(w);
      } while (w !== v);
      const cyclic = members.length > 1 || edges[v]!.some((e) => e.to === v);
      for (const m of members) component[m] = cyclic ? components : -1;
      components++;
    }
  }
  return component;
}

/**
 * Breadth-first search for the shortest cycle through a template, inside its component only (a path
 * that leaves the component never comes back), with arrays reused across searches. Visits nodes in
 * the same order as a search over the whole graph, so the cycle found is the same.
 */
class CycleSearch {
  private readonly seen: Int32Array;
  private readonly prev: Int32Array;
  private readonly firstAt: (Located<string> | undefined)[];
  private stamp = 0;

  constructor(
    private readonly edges: readonly Edge[][],
    private readonly component: Int32Array,
  ) {
    this.seen = new Int32Array(edges.length);
    this.prev = new Int32Array(edges.length);
    this.firstAt = new Array<Located<string> | undefined>(edges.length);
  }

  /** The cycle's nodes (start, …, start) and where it is reported: the placeholder that leaves the start. */
  shortest(start: number): { at: Located<string>; path: number[] } | null {
    const { edges, component, seen, prev, firstAt } = this;
    const own = edges[start]!;
    for (const e of own) if (e.to === start) return { at: e.at, path: [start, start] };
    const comp = component[start]!;
    const mark = ++this.stamp;
    const queue: number[] = [];
    for (const e of own) {
      if (component[e.to] !== comp || seen[e.to] === mark) continue;
      seen[e.to] = mark;
      prev[e.to] = start;
      firstAt[e.to] = e.at;
      queue.push(e.to);
    }
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (const e of edges[node]!) {
        if (e.to === start) {
          const chain: number[] = [];
          for (let cur = node; cur !== start; cur = prev[cur]!) chain.push(cur);
          chain.reverse();
          return { at: firstAt[chain[0]!]!, path: [start, ...chain, start] };
        }
        if (component[e.to] !== comp || seen[e.to] === mark) continue;
        seen[e.to] = mark;
        prev[e.to] = node;
        queue.push(e.to);
      }
    }
    return null;
  }
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
