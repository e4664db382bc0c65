/**
 * The SysRS outline as data (`schemas/sysrs-outline.json`, SPEC §2.4): its TypeScript type and the
 * compiled form the checker in `outline.ts` walks. Compiling validates the data and applies a
 * language's heading table, so a new section, tag or language is a data change only.
 */
import type { HeadingTable } from '../../core/types.js';

/** Content kind of a leaf section. */
export type SysrsContentKind = 'prose' | 'list' | 'bullets' | 'updates';

/** One `##`/`###` heading of the outline (an entry of `sections` or of a container's `children`). */
export interface SysrsOutlineSection {
  /** Canonical English heading text, matched exactly (through the heading table for a variant). */
  heading: string;
  /** Markdown heading level: 2 for `sections`, parent level + 1 for `children`. */
  level: number;
  /** Mandatory sections must be present; default false. */
  mandatory?: boolean;
  /** Leaf content kind; absent on a container (one with `children`), whose own prose is free. */
  content?: SysrsContentKind;
  /** `list` only: the tags a bullet may carry (`GOL`, `REQ`, …). */
  tags?: string[];
  /** A container's sub-sections, in the order they must appear. */
  children?: SysrsOutlineSection[];
  /** A container needs at least this many of its children (default 0). */
  minChildren?: number;
  /** The section must be the last one of its level. */
  last?: boolean;
  /** Body-model key; default: snake_case of `heading`. */
  key?: string;
}

/** The whole outline document (`schemas/sysrs-outline.json`). */
export interface SysrsOutline {
  $comment?: string;
  /** Canonical H1 prefix, e.g. `System Requirements Specification: `. */
  h1Prefix: string;
  /** The `##` sections in the order they must appear. */
  sections: SysrsOutlineSection[];
}

export type NodeKind = SysrsContentKind | 'container';

/** A compiled outline node; the virtual root (level 1) holds the `##` sections as children. */
export interface OutlineNode {
  heading: string;
  /** Heading text as it appears in the document (translated for a variant). */
  display: string;
  key: string;
  level: number;
  mandatory: boolean;
  kind: NodeKind;
  tags: string[];
  children: OutlineNode[];
  minChildren: number;
  last: boolean;
  parent: OutlineNode | null;
  /** display text → index in `children`. */
  byDisplay: Map<string, number>;
}

export interface CompiledOutline {
  root: OutlineNode;
  /** H1 prefix as it appears in the document (translated for a variant). */
  prefix: string;
  /** Deepest heading level that is structure (deeper headings are content). */
  maxLevel: number;
  /** Every node by display text, for hints on misplaced headings. */
  all: OutlineNode[];
}

/** `Packaging, Handling, Shipping and Transportation` → `packaging_handling_shipping_and_transportation`. */
export function sysrsKey(heading: string): string {
  return heading
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

const KINDS: ReadonlySet<string> = new Set(['prose', 'list', 'bullets', 'updates']);
const RESERVED_KEYS: ReadonlySet<string> = new Set(['text', 'line', 'items']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class OutlineError extends Error {}

function compileNode(raw: unknown, parent: OutlineNode, where: string, table: HeadingTable | null, all: OutlineNode[]): OutlineNode {
  if (!isRecord(raw)) throw new OutlineError(`${where} is not an object`);
  const heading = raw['heading'];
  if (typeof heading !== 'string' || heading.trim() === '') throw new OutlineError(`${where}.heading is not a non-empty string`);
  const level = raw['level'];
  if (level !== parent.level + 1) throw new OutlineError(`${where}.level is ${JSON.stringify(level)}, not ${parent.level + 1}`);
  const mandatory = raw['mandatory'] ?? false;
  if (typeof mandatory !== 'boolean') throw new OutlineError(`${where}.mandatory is not a boolean`);
  const last = raw['last'] ?? false;
  if (typeof last !== 'boolean') throw new OutlineError(`${where}.last is not a boolean`);
  const key = raw['key'] ?? sysrsKey(heading);
  if (typeof key !== 'string' || !/^[a-z0-9_]+$/.test(key)) throw new OutlineError(`${where}.key is not snake_case`);
  const children = raw['children'];
  const content = raw['content'];
  let kind: NodeKind;
  if (children !== undefined) {
    if (!Array.isArray(children) || children.length === 0) throw new OutlineError(`${where}.children is not a non-empty array`);
    if (content !== undefined) throw new OutlineError(`${where} has both children and content`);
    kind = 'container';
  } else {
    if (typeof content !== 'string' || !KINDS.has(content)) {
      throw new OutlineError(`${where}.content is not one of prose, list, bullets, updates`);
    }
    kind = content as SysrsContentKind;
  }
  const tagsRaw = raw['tags'];
  let tags: string[] = [];
  if (kind === 'list') {
    if (!Array.isArray(tagsRaw) || tagsRaw.length === 0 || !tagsRaw.every((t) => typeof t === 'string' && /^\S+$/.test(t))) {
      throw new OutlineError(`${where}.tags is not a non-empty array of tags`);
    }
    tags = tagsRaw as string[];
  } else if (tagsRaw !== undefined) {
    throw new OutlineError(`${where}.tags is only allowed on a list section`);
  }
  const minChildren = raw['minChildren'] ?? 0;
  if (typeof minChildren !== 'number' || !Number.isInteger(minChildren) || minChildren < 0) {
    throw new OutlineError(`${where}.minChildren is not a non-negative integer`);
  }
  const translated = table !== null && isRecord(table.headings) ? table.headings[heading] : undefined;
  const node: OutlineNode = {
    heading,
    display: typeof translated === 'string' && translated.trim() !== '' ? translated : heading,
    key,
    level,
    mandatory,
    kind,
    tags,
    children: [],
    minChildren,
    last,
    parent,
    byDisplay: new Map(),
  };
  all.push(node);
  if (Array.isArray(children)) compileChildren(node, children, `${where}.children`, table, all);
  return node;
}

function compileChildren(node: OutlineNode, list: unknown[], where: string, table: HeadingTable | null, all: OutlineNode[]): void {
  const keys = new Set<string>();
  list.forEach((raw, i) => {
    const child = compileNode(raw, node, `${where}[${i}]`, table, all);
    if (node.byDisplay.has(child.display)) throw new OutlineError(`${where}[${i}] repeats heading "${child.display}"`);
    if (keys.has(child.key)) throw new OutlineError(`${where}[${i}] repeats key "${child.key}"`);
    if (node.level > 1 && RESERVED_KEYS.has(child.key)) throw new OutlineError(`${where}[${i}].key "${child.key}" is reserved`);
    keys.add(child.key);
    node.byDisplay.set(child.display, node.children.length);
    node.children.push(child);
  });
  if (node.minChildren > node.children.length) throw new OutlineError(`${where.replace(/\.children$/, '')}.minChildren exceeds its children`);
}

const cache = new WeakMap<object, { byTable: WeakMap<object, CompiledOutline | string>; plain?: CompiledOutline | string }>();

/** Compiles (and caches per outline object and table object) the outline; a string is the reason it is invalid. */
export function compileOutline(outline: SysrsOutline, table: HeadingTable | null): CompiledOutline | string {
  if (!isRecord(outline)) return 'the outline is not an object';
  let entry = cache.get(outline);
  if (entry === undefined) {
    entry = { byTable: new WeakMap() };
    cache.set(outline, entry);
  }
  const useTable = isRecord(table) ? table : null;
  const hit = useTable === null ? entry.plain : entry.byTable.get(useTable);
  if (hit !== undefined) return hit;
  const result = compileUncached(outline, useTable);
  if (useTable === null) entry.plain = result;
  else entry.byTable.set(useTable, result);
  return result;
}

function compileUncached(outline: SysrsOutline, table: HeadingTable | null): CompiledOutline | string {
  try {
    const prefixRaw: unknown = outline.h1Prefix;
    if (typeof prefixRaw !== 'string' || prefixRaw.trim() === '') throw new OutlineError('h1Prefix is not a non-empty string');
    const sections: unknown = outline.sections;
    if (!Array.isArray(sections) || sections.length === 0) throw new OutlineError('sections is not a non-empty array');
    const root: OutlineNode = {
      heading: '',
      display: '',
      key: '',
      level: 1,
      mandatory: true,
      kind: 'container',
      tags: [],
      children: [],
      minChildren: 0,
      last: false,
      parent: null,
      byDisplay: new Map(),
    };
    const all: OutlineNode[] = [];
    compileChildren(root, sections, 'sections', table, all);
    let maxLevel = 2;
    for (const n of all) maxLevel = Math.max(maxLevel, n.kind === 'updates' ? n.level + 1 : n.level);
    const tablePrefix = table !== null ? (table as { h1Prefix?: unknown }).h1Prefix : undefined;
    const prefix = typeof tablePrefix === 'string' && tablePrefix.trim() !== '' ? tablePrefix : prefixRaw;
    return { root, prefix, maxLevel, all };
  } catch (e) {
    if (e instanceof OutlineError) return e.message;
    throw e;
  }
}
