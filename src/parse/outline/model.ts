/**
 * What the outline walk makes of a markdown body: the layer the outline rules read. It is structure,
 * not messages: the H1s, per level the headings found and what became of each, the sections missing,
 * containers with their children, list sections with their bullets, Updates entries, the ranges where a
 * structural heading is stray, and the parsed body handed to MCP clients (docs/sysrs-outline.md). The
 * rules (src/rules/outline/) say what is wrong and build the messages.
 */
import type { Block, BodyText, ListItem } from './blocks.js';
import type { CompiledOutline, OutlineNode } from './data.js';

// ---------------------------------------------------------------------------------------------
// The parsed body (docs/sysrs-outline.md, "The body model"): present sections by key, in document order.

/** A prose section: its raw markdown (trimmed) and its heading's line on disk. */
export interface ProseSection {
  text: string;
  line: number;
}
/** One `- <TAG> <uuid>: <title>` bullet; `line` is the bullet's line on disk. */
export interface ListItemEntry {
  tag: string;
  id: string;
  title: string;
  notes: string[];
  line: number;
}
export interface ListSection {
  items: ListItemEntry[];
}
/** One plain bullet of a `bullets` section (References). */
export interface ReferenceItem {
  text: string;
  line: number;
}
export interface ReferencesSection {
  items: ReferenceItem[];
}
/** One `### <timestamp> - <title>` entry of Updates. */
export interface UpdateItem {
  timestamp: string;
  title: string;
  text: string;
  line: number;
}
export interface UpdatesSection {
  items: UpdateItem[];
}
/** A container: its own prose (`text`, '' when none), its heading line, and its present children by key. */
export interface ContainerSection {
  text: string;
  line: number;
  [child: string]: BodySection | string | number;
}
export type BodySection = ProseSection | ListSection | ReferencesSection | UpdatesSection | ContainerSection;
/** The parsed body: present sections by key (snake_case of the canonical heading unless the outline says). */
export type OutlineBody = Record<string, BodySection>;

// ---------------------------------------------------------------------------------------------
// Structure.

/**
 * What became of a section heading found at a level: not a heading of the outline there; a repeat of a
 * section already found; a `last` section with a heading of its level after it; a section out of outline
 * order; or a section in order.
 */
export type HeadingState = 'unknown' | 'repeated' | 'not-last' | 'out-of-order' | 'in-order';

export interface FoundHeading {
  /** Index of the heading block. */
  block: number;
  /** Index of the block that ends its section (the next heading of its level or above, or the end of the range). */
  end: number;
  /** Index in the parent's children, -1 when unknown. */
  node: number;
  state: HeadingState;
  /**
   * `not-last`: the block of the heading that follows it. `out-of-order`: the index (in the parent's
   * children) of the section kept in order that it conflicts with, -1 for none. Else -1.
   */
  other: number;
  /** `out-of-order`: it came after `other` but belongs before it (else after it, before it). */
  belongsBefore: boolean;
}

/** A mandatory section absent from its parent, and the block where it is reported (`blocks.length`: the end of the body). */
export interface MissingSection {
  node: OutlineNode;
  at: number;
}

/** The sections of one parent (the body for `##`, a container for its children), in document order. */
export interface LevelScan {
  parent: OutlineNode;
  /** The heading level of its sections. */
  level: number;
  headings: FoundHeading[];
  missing: MissingSection[];
}

/**
 * Blocks [from, to) where a heading deeper than `level` (and structural: at most the outline's deepest
 * level) has no place: before the first section, after a second H1 (`under` null), or inside a leaf
 * section (`under` that section).
 */
export interface StrayScope {
  from: number;
  to: number;
  level: number;
  under: OutlineNode | null;
}

/** A container found, with how many of its children are present. */
export interface ContainerCheck {
  node: OutlineNode;
  block: number;
  present: number;
}

/**
 * A bullet of a `list` or `bullets` section: numbered (not a bullet), without text, with a lead that
 * is not `<TAG> <id>: <title>`, that form without a title, a list item, or a reference (`bullets`).
 */
export type BulletForm = 'numbered' | 'no-text' | 'not-an-item' | 'untitled' | 'item' | 'reference';

export interface Bullet {
  form: BulletForm;
  /** Body line of the bullet (its marker). */
  line0: number;
  /** The lead paragraph, its lines joined by a space ('' for `numbered` and `no-text`). */
  text: string;
  /** The list item as parsed: its marker, lead paragraph and notes. */
  source: ListItem;
  /** `item`: the entry of the body it became (tag and id as written, title, notes); see `itemLine` and `itemColumns` (build.ts) for where its tag and id are. */
  entry: ListItemEntry | null;
}

export interface ListCheck {
  node: OutlineNode;
  /** The section's heading block. */
  block: number;
  bullets: Bullet[];
}

/**
 * An Updates entry heading: not a timestamp at all; a date alone or a timestamp of another shape
 * (`written`); a date or time that does not exist; without a title; with another separator
 * (`detail`, at `detailColumn`); text glued to the timestamp (`detail`); or a valid entry.
 */
export type EntryForm = 'no-timestamp' | 'date-only' | 'bad-timestamp' | 'nonexistent' | 'untitled' | 'separator' | 'glued' | 'entry';

export interface UpdateEntry {
  block: number;
  /** Nothing below the heading up to the next entry. */
  empty: boolean;
  form: EntryForm;
  /** The timestamp (or what looks like one) as written; '' for `no-timestamp`. */
  written: string;
  /** Column (1-based) where the heading's text starts. */
  textColumn: number;
  detail: string;
  detailColumn: number;
  /** `entry`: milliseconds since the epoch. */
  instant: number;
}

export interface UpdatesCheck {
  node: OutlineNode;
  block: number;
  /** Entry heading level. */
  level: number;
  /** The first block before the first entry that is not an HTML comment, -1 when none. */
  stray: number;
  entries: UpdateEntry[];
}

export interface OutlineModel {
  outline: CompiledOutline;
  /** What messages call the outline: its data's `name`, else the kind's. */
  name: string;
  text: BodyText;
  blocks: readonly Block[];
  /** The whole text of the first H1 (prefix included), null when there is none. */
  title: string | null;
  /** Indices of the H1 blocks. */
  h1s: readonly number[];
  /** Every level scanned, in document order (the body's `##` level first). */
  levels: readonly LevelScan[];
  strays: readonly StrayScope[];
  containers: readonly ContainerCheck[];
  lists: readonly ListCheck[];
  updates: readonly UpdatesCheck[];
  /** The parsed body (sections by key). */
  body: OutlineBody;
}
