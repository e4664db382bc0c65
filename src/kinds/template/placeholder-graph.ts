/**
 * The placeholder graph of templates: template → templates whose `store_as` its placeholders name, one
 * edge per pair (a template may name the same store_as a thousand times, and three hundred templates may
 * share it). Cycles are searched only inside strongly connected components that can hold one.
 */
import type { Located } from '../../model/analysis.js';
import { formatBytes } from '../../model/text.js';
import { MAX_NAMED, groupBy } from '../../engine/groups.js';
import type { Groups } from '../../engine/groups.js';
import type { FactsEntry } from '../../engine/rule.js';
import type { TemplateFacts } from './parse.js';

export type TemplateEntry = FactsEntry<TemplateFacts>;

/** A placeholder reference from one template to another (by index in the template list). */
export interface Edge {
  to: number;
  /** The first placeholder of the template that names the target. */
  at: Located<string>;
}

/** Templates by the `store_as` they declare. */
export function owners(entries: readonly TemplateEntry[]): Groups<TemplateEntry> {
  return groupBy(entries, (t) => t.facts.storeAs?.value ?? null);
}

/**
 * Each template's edges, in first-occurrence order. A target has one store_as, so the first placeholder
 * of each distinct name gives every edge; names no template stores are left to `template-placeholder`.
 */
export function edgesOf(entries: readonly TemplateEntry[], byStore: Groups<TemplateEntry>): Edge[][] {
  const index = new Map(entries.map((t, i) => [t, i]));
  return entries.map((t) => {
    const own: Edge[] = [];
    const named = new Set<string>();
    for (const p of t.facts.placeholders) {
      const targets = byStore.get(p.value);
      if (targets === undefined || named.has(p.value)) continue;
      named.add(p.value);
      for (const to of Array.isArray(targets) ? targets : [targets]) own.push({ to: index.get(to)!, at: p });
    }
    return own;
  });
}

/** Every template's shortest cycle back to itself, if any: where it is reported, and the ids around it. */
export function cycles(entries: readonly TemplateEntry[]): { entry: TemplateEntry; at: Located<string>; ids: string[] }[] {
  const edges = edgesOf(entries, owners(entries));
  const component = cyclicComponents(edges);
  const search = new CycleSearch(edges, component);
  const out: { entry: TemplateEntry; at: Located<string>; ids: string[] }[] = [];
  entries.forEach((t, i) => {
    if (component[i]! < 0) return;
    const cycle = search.shortest(i);
    if (cycle) out.push({ entry: t, at: cycle.at, ids: cycle.path.map((k) => entries[k]!.id) });
  });
  return out;
}

/** `a → b → c → a`; past MAX_NAMED others, `a → b → c → d → … → a (and 3,996 more)`. */
export function cycleText(ids: readonly string[]): string {
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
