/**
 * An outline as data (SysRS's is `schemas/sysrs-outline.json`; a configured kind may bring its own in
 * the same format, described by `schemas/outline.schema.json`) and the compiled form the walk reads.
 * Data reaching `compileOutline` has passed that schema (src/project/schemas.ts checks it when rules are
 * loaded); compiling applies a language's heading table and checks what a schema cannot say: headings
 * and keys unique among siblings once translated, reserved keys, `minChildren` within the children.
 */
import type { HeadingTable } from '../../model/types.js';

/** Content kind of a leaf section. */
export type OutlineContent = 'prose' | 'list' | 'bullets' | 'updates';

/** One heading of the outline (an entry of `sections` or of a container's `children`). */
export interface OutlineSectionData {
  /** Canonical heading text, matched exactly (through the heading table for a language variant). */
  heading: string;
  /** Markdown heading level: 2 for `sections`, parent level + 1 for `children`. */
  level: number;
  /** Mandatory sections must be present; default false. */
  mandatory?: boolean;
  /** Leaf content kind; absent on a container (one with `children`), whose own prose is free. */
  content?: OutlineContent;
  /** `list` only: the tags a bullet may carry (`GOL`, `REQ`, …). */
  tags?: string[];
  /** A container's sub-sections, in the order they must appear. */
  children?: OutlineSectionData[];
  /** A container needs at least this many of its children (default 0). */
  minChildren?: number;
  /** The section must be the last one of its level. */
  last?: boolean;
  /** Body-model key; default: snake_case of `heading`. */
  key?: string;
}

/** A whole outline document. */
export interface OutlineData {
  $schema?: string;
  $comment?: string;
  /** What messages call the outline ("a section heading of the SysRS outline"); default: the kind's name. */
  name?: string;
  /** Canonical H1 prefix, e.g. `System Requirements Specification: `. */
  h1Prefix: string;
  /** The `##` sections in the order they must appear. */
  sections: OutlineSectionData[];
}

export type NodeKind = OutlineContent | 'container';

/** A compiled outline node; the virtual root (level 1) holds the `##` sections as children. */
export interface OutlineNode {
  heading: string;
  /** Heading text as it appears in the document (translated for a variant). */
  display: string;
  key: string;
  level: number;
  mandatory: boolean;
  kind: NodeKind;
  tags: readonly string[];
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
  /** Every node, in outline order, for hints on misplaced headings. */
  all: OutlineNode[];
  /** The outline's own `name`, or null (messages then use the kind's). */
  name: string | null;
}

/**
 * Outline data that is refused: the reason, and the JSON Pointer of the value at fault (ajv's
 * `instancePath`; the object holding a missing member), for a message with a position in the file.
 */
export class OutlineDataError extends Error {
  constructor(
    message: string,
    readonly instancePath: string,
    /** A member of the value at `instancePath` whose key is at fault (one that is not allowed), if any. */
    readonly key?: string,
  ) {
    super(message);
  }
}

/** The segments of a JSON Pointer (`/sections/1/level` → `sections`, `1`, `level`), and back. */
export function pointerSegments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
export function pointerOf(segments: readonly string[]): string {
  return segments.map((s) => '/' + s.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** `/sections/1/level` → `sections[1].level`: how problems name a place in the data. */
export function dataPath(pointer: string): string {
  let out = '';
  for (const segment of pointerSegments(pointer)) out += /^\d+$/.test(segment) ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out;
}

/** `Packaging, Handling, Shipping and Transportation` → `packaging_handling_shipping_and_transportation`. */
export function outlineKey(heading: string): string {
  return heading
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Keys a container's own fields use in the body model. */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['text', 'line', 'items']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A translation from the table when it is a usable one; any other value falls back to the canonical text. */
function translated(table: HeadingTable | null, text: string): string | null {
  const headings: unknown = table?.headings;
  const t = isRecord(headings) && Object.hasOwn(headings, text) ? headings[text] : undefined;
  return typeof t === 'string' && t.trim() !== '' ? t : null;
}

function compileNode(data: OutlineSectionData, parent: OutlineNode, pointer: string, table: HeadingTable | null, all: OutlineNode[]): OutlineNode {
  const node: OutlineNode = {
    heading: data.heading,
    display: translated(table, data.heading) ?? data.heading,
    key: data.key ?? outlineKey(data.heading),
    level: data.level,
    mandatory: data.mandatory ?? false,
    kind: data.children !== undefined ? 'container' : data.content!,
    tags: data.tags ?? [],
    children: [],
    minChildren: data.minChildren ?? 0,
    last: data.last ?? false,
    parent,
    byDisplay: new Map(),
  };
  all.push(node);
  if (data.children !== undefined) compileChildren(node, data.children, `${pointer}/children`, table, all);
  return node;
}

function compileChildren(node: OutlineNode, list: readonly OutlineSectionData[], pointer: string, table: HeadingTable | null, all: OutlineNode[]): void {
  const keys = new Set<string>();
  list.forEach((data, i) => {
    const at = `${pointer}/${i}`;
    const child = compileNode(data, node, at, table, all);
    if (node.byDisplay.has(child.display)) throw new OutlineDataError(`${dataPath(at)} repeats heading "${child.display}"`, at);
    if (keys.has(child.key)) throw new OutlineDataError(`${dataPath(at)} repeats key "${child.key}"`, at);
    if (node.level > 1 && RESERVED_KEYS.has(child.key)) throw new OutlineDataError(`${dataPath(at)}.key "${child.key}" is reserved`, at);
    keys.add(child.key);
    node.byDisplay.set(child.display, node.children.length);
    node.children.push(child);
  });
  if (node.minChildren > node.children.length) {
    const at = `${pointer.replace(/\/children$/, '')}/minChildren`;
    throw new OutlineDataError(`${dataPath(at)} exceeds its children`, at);
  }
}

function compileUncached(data: OutlineData, table: HeadingTable | null): CompiledOutline {
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
  compileChildren(root, data.sections, '/sections', table, all);
  let maxLevel = 2;
  for (const n of all) maxLevel = Math.max(maxLevel, n.kind === 'updates' ? n.level + 1 : n.level);
  const tablePrefix: unknown = table?.h1Prefix;
  const prefix = typeof tablePrefix === 'string' && tablePrefix.trim() !== '' ? tablePrefix : data.h1Prefix;
  return { root, prefix, maxLevel, all, name: data.name ?? null };
}

const cache = new WeakMap<object, { byTable: WeakMap<object, CompiledOutline>; plain?: CompiledOutline }>();

/**
 * The compiled outline for a language (`table` null: the canonical one), cached per data object and
 * table object (rule sets are loaded once per root). Throws OutlineDataError for what the outline
 * schema cannot refuse (see the file comment).
 */
export function compileOutline(data: OutlineData, table: HeadingTable | null): CompiledOutline {
  let entry = cache.get(data);
  if (entry === undefined) cache.set(data, (entry = { byTable: new WeakMap() }));
  const useTable = isRecord(table) ? table : null;
  let compiled = useTable === null ? entry.plain : entry.byTable.get(useTable);
  if (compiled === undefined) {
    compiled = compileUncached(data, useTable);
    if (useTable === null) entry.plain = compiled;
    else entry.byTable.set(useTable, compiled);
  }
  return compiled;
}
