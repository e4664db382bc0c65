/** The placeholder graph of templates: which templates a template's `{{x_summary}}` placeholders name. */
import type { Located } from '../../core/analysis.js';
import type { FactsEntry } from '../../engine/rule.js';
import { groupBy, members } from '../../engine/groups.js';
import type { Groups } from '../../engine/groups.js';
import type { TemplateFacts } from './parse.js';

export type TemplateEntry = FactsEntry<TemplateFacts>;
type Edges = Map<string, { to: TemplateEntry; at: Located<string> }[]>;

/** Templates by the `store_as` they declare. */
export function owners(entries: readonly TemplateEntry[]): Groups<TemplateEntry> {
  return groupBy(entries, (t) => t.facts.storeAs?.value ?? null);
}

/** Each template's edges: one per placeholder and template storing what it names. */
export function edgesOf(entries: readonly TemplateEntry[], byStore: Groups<TemplateEntry>): Edges {
  const edges: Edges = new Map();
  for (const t of entries) {
    const own: { to: TemplateEntry; at: Located<string> }[] = [];
    for (const p of t.facts.placeholders) for (const to of members(byStore.get(p.value))) own.push({ to, at: p });
    edges.set(t.path, own);
  }
  return edges;
}

/** The shortest path of placeholder references from `start` back to itself, if any (breadth first). */
export function shortestCycle(start: TemplateEntry, edges: Edges): { at: Located<string>; names: string[] } | null {
  const firstEdges = edges.get(start.path) ?? [];
  for (const first of firstEdges) {
    if (first.to.path === start.path) return { at: first.at, names: [start.id, start.id] };
  }
  const prev = new Map<string, TemplateEntry>();
  const queue: TemplateEntry[] = [];
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
        let cur: TemplateEntry | undefined = node;
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
