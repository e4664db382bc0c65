/**
 * SysRS body outline engine (SPEC §2.4 body rules, §4.4 body model). Interprets the outline data of
 * `schemas/sysrs-outline.json` over the block token stream of markdown-it (CommonMark mode); token
 * `map` line ranges plus the frontmatter's line count give positions on disk. Pure, never throws.
 * Rule ids, messages and the body model are documented in docs/sysrs-outline.md.
 */
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { KeptDiagnostics } from '../../core/result.js';
import type { Diagnostic, HeadingTable } from '../../core/types.js';
import { compileOutline, type CompiledOutline, type OutlineNode, type SysrsOutline } from './outline-data.js';
import { OUTLINE_RULE_TEMPLATES } from '../../rules/outline/index.js';

export type { SysrsOutline, SysrsOutlineSection, SysrsContentKind } from './outline-data.js';
export { sysrsKey } from './outline-data.js';

/** A prose section: its raw markdown (trimmed) and its heading's line on disk. */
export interface SysrsProseSection {
  text: string;
  line: number;
}
/** One `- <TAG> <uuid>: <title>` bullet; `line` is the bullet's line on disk. */
export interface SysrsListItem {
  tag: string;
  id: string;
  title: string;
  notes: string[];
  line: number;
}
export interface SysrsListSection {
  items: SysrsListItem[];
}
/** One plain bullet of a `bullets` section (References). */
export interface SysrsReferenceItem {
  text: string;
  line: number;
}
export interface SysrsReferencesSection {
  items: SysrsReferenceItem[];
}
/** One `### <timestamp> - <title>` entry of Updates. */
export interface SysrsUpdateItem {
  timestamp: string;
  title: string;
  text: string;
  line: number;
}
export interface SysrsUpdatesSection {
  items: SysrsUpdateItem[];
}
/** A container: its own prose (`text`, '' when none), its heading line, and its present children by key. */
export interface SysrsContainerSection {
  text: string;
  line: number;
  [child: string]: SysrsSection | string | number;
}
export type SysrsSection =
  | SysrsProseSection
  | SysrsListSection
  | SysrsReferencesSection
  | SysrsUpdatesSection
  | SysrsContainerSection;
/** The parsed body: present sections by snake_case key of the canonical English heading. */
export type SysrsBody = Record<string, SysrsSection>;

export interface SysrsBodyCheck {
  /** The whole text of the first H1 (prefix included), null when there is none. */
  title: string | null;
  body: SysrsBody;
  diagnostics: Diagnostic[];
}

/**
 * Every rule id this engine reports, with what it checks: the outline rules of the registry under the
 * `sysrs` prefix, and the engine's own two (refused outline data, an internal error).
 */
export const SYSRS_OUTLINE_RULES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(OUTLINE_RULE_TEMPLATES.map((t) => [`sysrs-${t.suffix}`, t.description])),
  'sysrs-outline-invalid': 'The outline data (and heading table) passed in is well-formed.',
  'sysrs-internal': 'The engine hit an internal error (a bug; never expected).',
};

// ---------------------------------------------------------------------------------------------
// markdown-it: one instance per process, created on first use. Only block structure and the raw
// `content` of inline tokens are needed, so inline parsing is switched off.

// Loaded on first use (synchronously, through its CommonJS build): a lint of processes only never pays for it.
const require = createRequire(import.meta.url);
let parser: MarkdownIt | undefined;
function markdown(): MarkdownIt {
  if (parser === undefined) {
    const MarkdownItClass = require('markdown-it') as typeof MarkdownIt;
    parser = new MarkdownItClass('commonmark');
    // `normalize` is done by us before parsing (CR and NUL below), so markdown-it's second pass over
    // every body (two regular expressions over the whole text) is skipped.
    parser.core.ruler.disable(['normalize', 'inline', 'text_join'], true);
  }
  return parser;
}

// ---------------------------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_ANY_CASE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LEAD = /^(\S+)([ \t]+)(\S+?):(?:[ \t]+(\S.*))?$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})\.(\d{3})(?:Z|([+-])(\d{2}):(\d{2}))/;
const TIMESTAMP_LIKE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d[\d:.]*(?:Z|[+-][\d:]+)?)?/;
const TIMESTAMP_FORMAT = '`YYYY-MM-DD HH:MM:SS.mmm` then `Z` or `±HH:MM`';

/** One child block of a list item, as `checkList` reads it. */
interface ItemChild {
  /** markdown-it token type of the child's opening (or only) token, e.g. `paragraph_open`. */
  type: string;
  /** 0-based body line range [line0, line1), or line0 -1 when markdown-it gave none. */
  line0: number;
  line1: number;
  /** A paragraph's raw inline text ('' for anything else). */
  text: string;
}

/** One item of a top-level list (a 2 MiB list has 350,000: two objects each, no arrays for the usual item). */
interface ListItem {
  /** 0-based body line of the item, when markdown-it gave one. */
  line0: number | null;
  /** Length of the item's marker (`-`, `1.`). */
  markerLength: number;
  /** The item's first child block (a SysRS bullet's lead text), and the others (its notes), if any. */
  lead: ItemChild | null;
  rest: ItemChild[] | null;
}

/** A top-level (token level 0) block of the body. */
interface Block {
  type: string;
  /** 0-based body line range [line0, line1). */
  line0: number;
  line1: number;
  /** Heading level 1..6, 0 for a non-heading. */
  hLevel: number;
  /** Heading text ('' for a non-heading). */
  text: string;
  /** The items of a list; null for anything else. */
  items: ListItem[] | null;
}

/** Where findings go: every one (the engine's own callers), or only those a result can show. */
interface Sink {
  /** False when a finding at this file position would be dropped: its message is then never built. */
  wants(line: number, column: number): boolean;
  add(d: Diagnostic): void;
}

/** Every finding, in the order reported (sorted by position at the end). */
class AllDiagnostics implements Sink {
  readonly list: Diagnostic[] = [];
  wants(): boolean {
    return true;
  }
  add(d: Diagnostic): void {
    this.list.push(d);
  }
}

interface Ctx {
  lines: string[];
  blocks: Block[];
  offset: number;
  co: CompiledOutline;
  sink: Sink;
}

/** A section heading found at the level being scanned. */
interface Found {
  bi: number;
  end: number;
  node: number;
  /** Index in the level's list of found headings. */
  pos: number;
}

function firstNonWs(s: string): number {
  const m = /[^ \t]/.exec(s);
  return m === null ? 0 : m.index;
}

function quote(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return '`' + (one.length > 60 ? one.slice(0, 59) + '…' : one) + '`';
}

function hashes(level: number, text: string): string {
  return '`' + '#'.repeat(level) + ' ' + text + '`';
}

function orList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return items.slice(0, -1).join(', ') + ' or ' + items[items.length - 1];
}

function lineAt(ctx: Ctx, line0: number): string {
  return ctx.lines[line0] ?? '';
}

function fileLine(ctx: Ctx, line0: number): number {
  return ctx.offset + line0 + 1;
}

/** Reports a finding; `message` is built only when the finding can be kept (a body may have 300,000). */
function report(ctx: Ctx, line0: number, column: number, rule: string, message: () => string): void {
  const line = fileLine(ctx, line0);
  if (ctx.sink.wants(line, column)) ctx.sink.add({ line, column, rule, message: message() });
}

/** Column (1-based) of the first non-blank character of a body line. */
function startCol(ctx: Ctx, line0: number): number {
  return firstNonWs(lineAt(ctx, line0)) + 1;
}

/** Index in the raw line where an ATX heading's text starts (after `#`s and blanks). */
function headingTextStart(ctx: Ctx, b: Block): number {
  const raw = lineAt(ctx, b.line0);
  let i = firstNonWs(raw);
  if (raw[i] !== '#') return i;
  while (raw[i] === '#') i++;
  while (raw[i] === ' ' || raw[i] === '\t') i++;
  return i;
}

/** First 0-based body line at block index `bi` (end of body when `bi` is past the last block). */
function lineOfBlock(ctx: Ctx, bi: number): number {
  const b = ctx.blocks[bi];
  return b === undefined ? ctx.lines.length : b.line0;
}

function rawText(ctx: Ctx, from: number, to: number): string {
  return ctx.lines.slice(from, Math.max(from, to)).join('\n').trim();
}

/** Short description of a block for "Unexpected X". */
function describe(ctx: Ctx, b: Block): string {
  switch (b.type) {
    case 'heading':
      return 'heading ' + hashes(b.hLevel, b.text);
    case 'paragraph':
      return 'text ' + quote(lineAt(ctx, b.line0));
    case 'bullet_list':
    case 'ordered_list':
      return 'list ' + quote(lineAt(ctx, b.line0));
    case 'fence':
    case 'code_block':
      return 'code block';
    case 'html_block':
      return 'HTML block ' + quote(lineAt(ctx, b.line0));
    case 'hr':
      return 'thematic break';
    case 'blockquote':
      return 'block quote';
    default:
      return b.type.replace(/_/g, ' ');
  }
}

/** Where something expected but absent is reported: at block `bi`, or at the end of the body. */
function reportAt(ctx: Ctx, bi: number, rule: string, expected: () => string): void {
  const b = ctx.blocks[bi];
  if (b === undefined) {
    const n = ctx.lines.length - (ctx.lines[ctx.lines.length - 1] === '' ? 1 : 0);
    const line = n > 0 ? ctx.offset + n : Math.max(1, ctx.offset);
    if (ctx.sink.wants(line, 1)) ctx.sink.add({ line, column: 1, rule, message: `Unexpected end of document, expected ${expected()}` });
    return;
  }
  report(ctx, b.line0, startCol(ctx, b.line0), rule, () => `Unexpected ${b.type === 'heading' ? hashes(b.hLevel, b.text) : describe(ctx, b)}, expected ${expected()}`);
}

/** Block type of an opening (or only) token: `heading_open` → `heading`, without a regular expression per block. */
const blockTypes = new Map<string, string>();
function blockType(tokenType: string): string {
  let type = blockTypes.get(tokenType);
  if (type === undefined) blockTypes.set(tokenType, (type = tokenType.replace(/_open$/, '')));
  return type;
}

/**
 * Turns markdown-it's block tokens into `Block`s while markdown-it parses, keeping no token longer than
 * needed: a 2 MiB body is a million tokens or more, and holding them all cost 0.3–0.5 GB. It is handed to
 * markdown-it's block parser as its token list (`ParserBlock.parse(src, md, env, outTokens)`), which only
 * ever pushes to it, except that its list rule reads `length` (to revisit its own paragraphs and mark
 * tight ones `hidden`, which nothing here reads): `length` stays 0, so there is nothing to revisit.
 * A token's fields (map, content, markup) are set right after it is pushed, and a container's end line
 * after its closing token is pushed, so a block is converted only when the next one at its level (or
 * above) starts, or at the end.
 */
class BlockStream {
  readonly blocks: Block[] = [];
  readonly length = 0;
  /** The current top-level block's opening (or only) token, and its first inline token (a heading's text). */
  private top: Token | null = null;
  private topText: Token | null = null;
  /** The items of the current top-level block when it is a list. */
  private items: ListItem[] | null = null;
  /** The current item's opening token and child blocks, and its current child's opening token and inline token. */
  private item: Token | null = null;
  private lead: ItemChild | null = null;
  private rest: ItemChild[] | null = null;
  private child: Token | null = null;
  private childText: Token | null = null;
  private lastLine = 0;

  push(t: Token): number {
    const level = t.level;
    if (level === 0) {
      if (t.nesting !== -1) {
        this.endTop();
        this.top = t;
        this.items = t.type === 'bullet_list_open' || t.type === 'ordered_list_open' ? [] : null;
      }
    } else if (this.items === null) {
      if (level === 1 && t.type === 'inline' && this.topText === null) this.topText = t;
    } else if (level === 1) {
      // An item opens or closes.
      this.endChild();
      if (t.nesting === 1) {
        this.endItem();
        this.item = t;
      }
    } else if (level === 2) {
      if (t.nesting !== -1) {
        this.endChild();
        this.child = t;
        this.childText = null;
      }
    } else if (level === 3 && t.type === 'inline' && this.child !== null && this.child.type === 'paragraph_open' && this.childText === null) {
      this.childText = t;
    }
    return 0;
  }

  private endChild(): void {
    const c = this.child;
    if (c === null) return;
    const child: ItemChild = { type: c.type, line0: c.map ? c.map[0] : -1, line1: c.map ? c.map[1] : -1, text: this.childText?.content ?? '' };
    if (this.lead === null) this.lead = child;
    else (this.rest ??= []).push(child);
    this.child = null;
    this.childText = null;
  }

  private endItem(): void {
    const li = this.item;
    if (li === null) return;
    this.items!.push({ line0: li.map ? li.map[0] : null, markerLength: li.markup.length, lead: this.lead, rest: this.rest });
    this.item = null;
    this.lead = null;
    this.rest = null;
  }

  private endTop(): void {
    const t = this.top;
    if (t === null) return;
    if (this.items !== null) {
      this.endChild();
      this.endItem();
    }
    const map = t.map;
    const line0 = map ? map[0] : this.lastLine;
    const line1 = map ? map[1] : this.lastLine;
    this.lastLine = line1;
    const isHeading = t.type === 'heading_open';
    this.blocks.push({
      type: blockType(t.type),
      line0,
      line1,
      hLevel: isHeading ? Number(t.tag.slice(1)) || 0 : 0,
      text: isHeading ? (this.topText?.content ?? '') : '',
      items: this.items,
    });
    this.top = null;
    this.topText = null;
    this.items = null;
  }

  /** The blocks, once markdown-it is done. */
  finish(): Block[] {
    this.endTop();
    return this.blocks;
  }
}

/** The top-level blocks of a body (`src` already normalized: no CR, no NUL). */
function parseBlocks(src: string): Block[] {
  const md = markdown();
  const stream = new BlockStream();
  // The core rules left on are `block` alone (see `markdown()`), which is this call.
  md.block.parse(src, md, {}, stream as unknown as Token[]);
  return stream.finish();
}

/** Structural headings (deeper than `level`, not deeper than the outline) in blocks [from, to) are errors. */
function strayHeadings(ctx: Ctx, from: number, to: number, level: number, expected: string): void {
  for (let i = from; i < to; i++) {
    const b = ctx.blocks[i]!;
    if (b.hLevel > level && b.hLevel <= ctx.co.maxLevel) {
      report(ctx, b.line0, startCol(ctx, b.line0), 'sysrs-unknown-heading', () => `Unexpected heading ${hashes(b.hLevel, b.text)}, expected ${expected}`);
    }
  }
}

/**
 * Longest strictly increasing subsequence of `values` (small non-negative integers: outline indices),
 * earliest positions preferred; returns kept positions. O(n log n): `best[i]`, the longest run starting
 * at i, comes from a Fenwick tree of maxima over the values seen to the right.
 */
function keptInOrder(values: number[]): Set<number> {
  const n = values.length;
  let size = 0;
  for (const v of values) if (v + 1 > size) size = v + 1;
  // tree[r]: maximum of `best` over values v with size - 1 - v in r's range (larger values first).
  const tree = new Int32Array(size + 1);
  const best = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    const r = size - 1 - values[i]!;
    let longest = 0;
    for (let j = r; j > 0; j -= j & -j) if (tree[j]! > longest) longest = tree[j]!;
    best[i] = longest + 1;
    for (let j = r + 1; j <= size; j += j & -j) if (tree[j]! < best[i]!) tree[j] = best[i]!;
  }
  const kept = new Set<number>();
  let need = 0;
  for (let i = 0; i < n; i++) if (best[i]! > need) need = best[i]!;
  let prev = -Infinity;
  for (let i = 0; i < n && need > 0; i++) {
    if (best[i] === need && values[i]! > prev) {
      kept.add(i);
      prev = values[i]!;
      need--;
    }
  }
  return kept;
}

/** First index in [from, to) of a sorted-by-`key` list whose key is at least `value`. */
function lowerBound<T>(list: readonly T[], value: number, key: (t: T) => number, from = 0, to = list.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(list[mid]!) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const byBlock = (f: Found): number => f.bi;
const byNode = (f: Found): number => f.node;

function unknownHint(ctx: Ctx, parent: OutlineNode, level: number, text: string): string {
  const lower = text.toLowerCase();
  const sibling = parent.children.find((c) => c.display.toLowerCase() === lower);
  if (sibling) return `${hashes(level, sibling.display)} (headings match exactly)`;
  const elsewhere = ctx.co.all.find((n) => n.display === text || n.heading === text || n.display.toLowerCase() === lower);
  if (elsewhere) {
    const under = elsewhere.parent && elsewhere.parent.level > 1 ? ` under ${hashes(elsewhere.parent.level, elsewhere.parent.display)}` : '';
    return hashes(elsewhere.level, elsewhere.display) + under;
  }
  if (parent.level === 1) return 'a section heading of the SysRS outline';
  return orList(parent.children.map((c) => hashes(level, c.display)));
}

/**
 * Checks the sections of `parent` (headings at parent.level + 1) among blocks [from, to) and fills `out`.
 * Returns the index of the first heading that starts a section (or `to`): blocks before it are the parent's own content.
 */
function scanLevel(ctx: Ctx, parent: OutlineNode, from: number, to: number, out: Record<string, unknown>): number {
  const L = parent.level + 1;
  const { blocks } = ctx;
  const boundaries: number[] = [];
  for (let i = from; i < to; i++) {
    const h = blocks[i]!.hLevel;
    if (h >= 1 && h <= L) boundaries.push(i);
  }
  const introEnd = boundaries[0] ?? to;
  const expectSection = 'a `' + '#'.repeat(L) + '` section heading before it';
  if (parent.level === 1) strayHeadings(ctx, from, introEnd, L, expectSection);
  const found: Found[] = [];
  boundaries.forEach((bi, k) => {
    const end = boundaries[k + 1] ?? to;
    const b = blocks[bi]!;
    if (b.hLevel < L) {
      strayHeadings(ctx, bi + 1, end, L, expectSection);
      return;
    }
    found.push({ bi, end, node: parent.byDisplay.get(b.text) ?? -1, pos: found.length });
  });

  // Unknown and repeated headings; first occurrences go on.
  const firsts: Found[] = [];
  const seen = new Set<number>();
  for (const f of found) {
    const b = blocks[f.bi]!;
    const col = startCol(ctx, b.line0);
    if (f.node < 0) {
      report(ctx, b.line0, col, 'sysrs-unknown-heading', () => `Unexpected heading ${hashes(L, b.text)}, expected ${unknownHint(ctx, parent, L, b.text)}`);
    } else if (seen.has(f.node)) {
      report(ctx, b.line0, col, 'sysrs-heading-duplicate', () => `Unexpected second ${hashes(L, b.text)}, expected each section once`);
    } else {
      seen.add(f.node);
      firsts.push(f);
    }
  }

  // A `last` section followed by any section heading of its level.
  const ordered: Found[] = [];
  for (const f of firsts) {
    const node = parent.children[f.node]!;
    const next = found[f.pos + 1];
    if (node.last && next !== undefined) {
      const b = blocks[f.bi]!;
      report(
        ctx,
        b.line0,
        startCol(ctx, b.line0),
        'sysrs-section-last',
        () => `Unexpected ${hashes(L, node.display)} before ${hashes(L, blocks[next.bi]!.text)}, expected ${hashes(L, node.display)} to be the last section`,
      );
    } else {
      ordered.push(f);
    }
  }

  // Order: the longest in-order run stays, every other section is out of order.
  const kept = keptInOrder(ordered.map((f) => f.node));
  const keptList = ordered.filter((_, i) => kept.has(i));
  ordered.forEach((f, i) => {
    if (kept.has(i)) return;
    const me = parent.children[f.node]!;
    const b = blocks[f.bi]!;
    // keptList rises in both block and node: the kept sections before this one are a prefix, after it a suffix.
    const split = lowerBound(keptList, f.bi, byBlock);
    const firstAbove = lowerBound(keptList, f.node + 1, byNode, 0, split);
    const before = firstAbove < split ? keptList[firstAbove] : undefined;
    const lastBelow = lowerBound(keptList, f.node, byNode, split) - 1;
    const after = lastBelow >= split ? keptList[lastBelow] : undefined;
    const other = before ?? after;
    const otherText = other ? hashes(L, parent.children[other.node]!.display) : '';
    report(ctx, b.line0, startCol(ctx, b.line0), 'sysrs-heading-order', () =>
      before
        ? `Unexpected ${hashes(L, me.display)} after ${otherText}, expected it before ${otherText}`
        : `Unexpected ${hashes(L, me.display)} before ${otherText}, expected it after ${otherText}`,
    );
  });

  // Missing mandatory sections, reported at the heading that came instead (or where the parent ends).
  const present = new Set(firsts.map((f) => f.node));
  const where = parent.level > 1 ? ` in ${hashes(parent.level, parent.display)}` : '';
  parent.children.forEach((node, m) => {
    if (!node.mandatory || present.has(m)) return;
    const below = lowerBound(keptList, m, byNode) - 1;
    const pred = below >= 0 ? keptList[below] : undefined;
    const at = pred ? found[lowerBound(found, pred.bi + 1, byBlock)] : found[0];
    reportAt(ctx, at ? at.bi : to, 'sysrs-missing-section', () => `${hashes(L, node.display)}${where}`);
  });

  // Content of every recognised section (first occurrence), in document order.
  for (const f of firsts) {
    const node = parent.children[f.node]!;
    const value = checkSection(ctx, node, f);
    if (value !== undefined) out[node.key] = value;
  }
  return introEnd;
}

function checkSection(ctx: Ctx, node: OutlineNode, f: Found): SysrsSection | undefined {
  const head = ctx.blocks[f.bi]!;
  const line = fileLine(ctx, head.line0);
  const from = f.bi + 1;
  const noSub = `no sub-section under ${hashes(node.level, node.display)}`;
  switch (node.kind) {
    case 'prose':
      strayHeadings(ctx, from, f.end, node.level, noSub);
      return { text: rawText(ctx, head.line1, lineOfBlock(ctx, f.end)), line };
    case 'container': {
      const section: SysrsContainerSection = { text: '', line };
      const introEnd = scanLevel(ctx, node, from, f.end, section);
      section.text = rawText(ctx, head.line1, lineOfBlock(ctx, introEnd));
      const count = node.children.filter((c) => c.key in section).length;
      if (count < node.minChildren) {
        const subs = orList(node.children.map((c) => hashes(node.level + 1, c.display)));
        const what = node.minChildren === 1 ? 'at least one of' : `at least ${node.minChildren} of`;
        report(ctx, head.line0, startCol(ctx, head.line0), 'sysrs-container-empty', () => `Unexpected ${hashes(node.level, node.display)} without a sub-section, expected ${what} ${subs}`);
      }
      return section;
    }
    case 'list':
    case 'bullets':
      strayHeadings(ctx, from, f.end, node.level, noSub);
      return checkList(ctx, node, head, from, f.end);
    case 'updates':
      return checkUpdates(ctx, node, head, from, f.end);
  }
}

function itemTemplate(node: OutlineNode): string {
  if (node.kind === 'bullets') return '`- <reference>`';
  if (node.tags.length === 1) return '`- ' + node.tags[0] + ' <uuid>: <title>`';
  return '`- <TAG> <uuid>: <title>` with TAG ' + orList(node.tags.map((t) => '`' + t + '`'));
}

function joinLines(s: string): string {
  if (!s.includes('\n')) return s.trim();
  return s
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join(' ');
}

function dedent(ctx: Ctx, from: number, to: number): string {
  const ls = ctx.lines.slice(from, to);
  let min = Infinity;
  for (const l of ls) if (l.trim() !== '') min = Math.min(min, firstNonWs(l));
  return ls
    .map((l) => l.slice(Number.isFinite(min) ? min : 0))
    .join('\n')
    .trim();
}

function checkList(
  ctx: Ctx,
  node: OutlineNode,
  head: Block,
  from: number,
  to: number,
): SysrsListSection | SysrsReferencesSection {
  const items: SysrsListItem[] = [];
  const refs: SysrsReferenceItem[] = [];
  const template = itemTemplate(node);
  let bullets = 0;
  for (let bi = from; bi < to; bi++) {
    const b = ctx.blocks[bi]!;
    if (b.type !== 'bullet_list' && b.type !== 'ordered_list') continue;
    for (const li of b.items ?? []) {
      const itemLine0 = li.line0 ?? b.line0;
      const raw = lineAt(ctx, itemLine0);
      const markerAt = firstNonWs(raw);
      const markerCol = markerAt + 1;
      bullets++;
      if (b.type === 'ordered_list') {
        report(ctx, itemLine0, markerCol, 'sysrs-list-item', () => `Unexpected numbered item ${quote(raw)}, expected a bullet ${template}`);
        continue;
      }
      const lead = li.lead;
      if (!lead || lead.type !== 'paragraph_open') {
        report(ctx, itemLine0, markerCol, 'sysrs-list-item', () => `Unexpected bullet without text, expected ${template}`);
        continue;
      }
      const leadText = joinLines(lead.text);
      if (node.kind === 'bullets') {
        refs.push({ text: leadText, line: fileLine(ctx, itemLine0) });
        continue;
      }
      const paraLine0 = lead.line0 >= 0 ? lead.line0 : itemLine0;
      let contentAt: number;
      if (paraLine0 === itemLine0) {
        contentAt = markerAt + Math.max(1, li.markerLength);
        while (raw[contentAt] === ' ' || raw[contentAt] === '\t') contentAt++;
      } else {
        contentAt = firstNonWs(lineAt(ctx, paraLine0));
      }
      const firstLen = lineAt(ctx, paraLine0).length - contentAt;
      const m = LEAD.exec(leadText);
      if (m === null || m[4] === undefined) {
        const why = m !== null ? ' without a title' : '';
        report(ctx, itemLine0, markerCol, 'sysrs-list-item', () => `Unexpected bullet ${quote(leadText)}${why}, expected ${template}`);
        continue;
      }
      const [, tag, ws, id, title] = m as unknown as [string, string, string, string, string];
      if (!node.tags.includes(tag)) {
        report(ctx, paraLine0, contentAt + 1, 'sysrs-list-tag', () => `Unexpected tag \`${tag}\`, expected ${orList(node.tags.map((t) => '`' + t + '`'))}`);
      }
      if (!UUID.test(id)) {
        const idOffset = tag.length + ws.length;
        const col = idOffset < firstLen ? contentAt + idOffset + 1 : contentAt + 1;
        report(ctx, paraLine0, col, 'sysrs-list-uuid', () =>
          UUID_ANY_CASE.test(id)
            ? `Unexpected uppercase UUID \`${id}\`, expected a lowercase UUID`
            : `Unexpected ID \`${id}\`, expected a lowercase UUID like \`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx\``,
        );
      }
      const notes: string[] = [];
      for (const kid of li.rest ?? []) {
        if (kid.type === 'paragraph_open') {
          const note = joinLines(kid.text);
          if (note !== '') notes.push(note);
        } else if (kid.line0 >= 0) {
          const note = dedent(ctx, kid.line0, kid.line1);
          if (note !== '') notes.push(note);
        }
      }
      items.push({ tag, id, title: title.trim(), notes, line: fileLine(ctx, itemLine0) });
    }
  }
  if (bullets === 0) {
    report(
      ctx,
      head.line0,
      startCol(ctx, head.line0),
      'sysrs-list-empty',
      () => `Unexpected empty ${hashes(node.level, node.display)}, expected at least one bullet ${template}`,
    );
  }
  return node.kind === 'bullets' ? { items: refs } : { items };
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Milliseconds since the epoch of a TIMESTAMP match, or NaN when the date or time does not exist. */
function instant(m: RegExpExecArray): number {
  const [y, mo, d, h, mi, s, ms] = [1, 2, 3, 4, 5, 6, 7].map((i) => Number(m[i]));
  const sign = m[8] === '-' ? -1 : 1;
  const oh = m[8] ? Number(m[9]) : 0;
  const om = m[8] ? Number(m[10]) : 0;
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > daysIn(y!, mo!) || h! > 23 || mi! > 59 || s! > 59 || oh > 23 || om > 59) return NaN;
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!, ms!) - sign * (oh * 60 + om) * 60_000;
}

function checkUpdates(ctx: Ctx, node: OutlineNode, head: Block, from: number, to: number): SysrsUpdatesSection {
  const level = node.level + 1;
  const entryFormat = '`' + '#'.repeat(level) + ' YYYY-MM-DD HH:MM:SS.mmmZ - <title>`';
  const items: SysrsUpdateItem[] = [];
  const starts: number[] = [];
  for (let i = from; i < to; i++) if (ctx.blocks[i]!.hLevel === level) starts.push(i);
  const firstEntry = starts[0] ?? to;
  for (let i = from; i < firstEntry; i++) {
    const b = ctx.blocks[i]!;
    const comment = b.type === 'html_block' && lineAt(ctx, b.line0).trimStart().startsWith('<!--');
    if (!comment) {
      report(
        ctx,
        b.line0,
        startCol(ctx, b.line0),
        'sysrs-updates-content',
        () => `Unexpected ${describe(ctx, b)} before the first entry, expected an HTML comment or ${entryFormat}`,
      );
      break;
    }
  }
  let prev: { at: number; ts: string } | undefined;
  starts.forEach((bi, k) => {
    const b = ctx.blocks[bi]!;
    const end = starts[k + 1] ?? to;
    const headCol = startCol(ctx, b.line0);
    const textAt = headingTextStart(ctx, b);
    const shown = hashes(level, b.text);
    const text = rawText(ctx, b.line1, lineOfBlock(ctx, end));
    if (text === '') {
      report(ctx, b.line0, headCol, 'sysrs-updates-empty', () => `Unexpected empty entry ${shown}, expected content below it`);
    }
    const m = TIMESTAMP.exec(b.text);
    if (m === null) {
      const like = TIMESTAMP_LIKE.exec(b.text);
      if (like === null) {
        report(ctx, b.line0, headCol, 'sysrs-updates-heading', () => `Unexpected heading ${shown}, expected ${entryFormat}`);
      } else if (like[0].length === 10) {
        report(ctx, b.line0, textAt + 1, 'sysrs-updates-heading', () => `Unexpected date-only timestamp \`${like[0]}\`, expected ${TIMESTAMP_FORMAT}`);
      } else {
        report(ctx, b.line0, textAt + 1, 'sysrs-updates-heading', () => `Unexpected timestamp \`${like[0]}\`, expected ${TIMESTAMP_FORMAT}`);
      }
      return;
    }
    const ts = m[0];
    const at = instant(m);
    if (Number.isNaN(at)) {
      report(ctx, b.line0, textAt + 1, 'sysrs-updates-heading', () => `Unexpected timestamp \`${ts}\` that does not exist, expected a real date and time`);
      return;
    }
    const rest = b.text.slice(ts.length);
    const sep = /^( - | : )(.*)$/.exec(rest);
    if (sep === null || sep[2]!.trim() === '') {
      if (/^\s*[-:]?\s*$/.test(rest)) {
        report(ctx, b.line0, headCol, 'sysrs-updates-heading', () => `Unexpected ${shown} without a title, expected ${entryFormat}`);
      } else {
        const lead = rest.length - rest.trimStart().length;
        const token = /^[^\p{L}\p{N}\s]*/u.exec(rest.trimStart())![0];
        const col = textAt + ts.length + lead + 1;
        report(ctx, b.line0, col, 'sysrs-updates-heading', () =>
          token !== ''
            ? `Unexpected separator \`${token}\` after the timestamp, expected \` - \` or \` : \``
            : `Unexpected ${quote(rest)} right after the timestamp, expected \` - \` or \` : \` then the title`,
        );
      }
      return;
    }
    if (prev !== undefined && at > prev.at) {
      const older = prev.ts;
      report(ctx, b.line0, textAt + 1, 'sysrs-updates-order', () => `Unexpected \`${ts}\` after the older \`${older}\`, expected newest first`);
    }
    prev = { at, ts };
    items.push({ timestamp: ts, title: sep[2]!.trim(), text, line: fileLine(ctx, b.line0) });
  });
  return { items };
}

function checkH1(ctx: Ctx): string | null {
  const { blocks, co } = ctx;
  const expected = '`# ' + co.prefix + '<title>`';
  const h1s: number[] = [];
  blocks.forEach((b, i) => {
    if (b.hLevel === 1) h1s.push(i);
  });
  const first = h1s[0];
  if (first === undefined) {
    reportAt(ctx, 0, 'sysrs-h1', () => `${expected} first`);
    return null;
  }
  if (first > 0) {
    const b = blocks[0]!;
    report(ctx, b.line0, startCol(ctx, b.line0), 'sysrs-h1-first', () => `Unexpected ${describe(ctx, b)} before the H1, expected ${expected} first`);
  }
  const h1 = blocks[first]!;
  const title = h1.text;
  if (!title.startsWith(co.prefix) || title.slice(co.prefix.length).trim() === '') {
    const why = title === co.prefix.trimEnd() ? ' without a title' : '';
    report(ctx, h1.line0, startCol(ctx, h1.line0), 'sysrs-h1', () => `Unexpected H1 ${hashes(1, title)}${why}, expected ${expected}`);
  }
  for (const i of h1s.slice(1)) {
    const b = blocks[i]!;
    report(ctx, b.line0, startCol(ctx, b.line0), 'sysrs-h1-duplicate', () => `Unexpected second H1 ${hashes(1, b.text)}, expected a single H1`);
  }
  return title;
}

function run(body: string, offset: number, outline: SysrsOutline, table: HeadingTable | null, limit: number | undefined): SysrsBodyCheck {
  const co = compileOutline(outline, table);
  if (typeof co === 'string') {
    return {
      title: null,
      body: {},
      diagnostics: [
        {
          line: 1,
          column: 1,
          rule: 'sysrs-outline-invalid',
          message: `Unexpected outline data (${co}), expected a valid SysRS outline like schemas/sysrs-outline.json`,
        },
      ],
    };
  }
  let lines = body.split('\n');
  // markdown-it also breaks lines at a lone CR; on disk (and for the core) only LF ends a line.
  // What markdown-it's own `normalize` rule would do is done here: no CR reaches it, NUL becomes U+FFFD.
  let src = body;
  if (body.includes('\r')) {
    lines = lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    src = lines.map((l) => (l.includes('\r') ? l.replace(/\r/g, ' ') : l)).join('\n');
  }
  if (src.includes('\0')) src = src.replace(/\0/g, '\uFFFD');
  const sink = limit === undefined ? new AllDiagnostics() : new KeptDiagnostics(limit);
  const ctx: Ctx = { lines, blocks: parseBlocks(src), offset, co, sink };
  const title = checkH1(ctx);
  const out: SysrsBody = {};
  scanLevel(ctx, co.root, 0, ctx.blocks.length, out);
  if (sink instanceof KeptDiagnostics) return { title, body: out, diagnostics: sink.list() };
  const diagnostics = sink.list
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.line - b.d.line || a.d.column - b.d.column || a.i - b.i)
    .map((x) => x.d);
  return { title, body: out, diagnostics };
}

/**
 * Checks a SysRS body against the outline and parses it into the body model.
 * body = file text after the frontmatter; bodyLineOffset = number of file lines before it;
 * table = null for English, else the variant's heading table. Never throws.
 * limit: keep only the diagnostics a result shows (`KeptDiagnostics`: the first `limit` by position,
 * sorted as in a result); without it, every diagnostic, sorted by position then in the order found.
 */
export function checkSysrsBody(body: string, bodyLineOffset: number, outline: SysrsOutline, table: HeadingTable | null, limit?: number): SysrsBodyCheck {
  const offset = Number.isInteger(bodyLineOffset) && bodyLineOffset > 0 ? bodyLineOffset : 0;
  try {
    return run(typeof body === 'string' ? body : '', offset, outline, table, limit);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      title: null,
      body: {},
      diagnostics: [
        { line: offset + 1, column: 1, rule: 'sysrs-internal', message: `Unexpected internal error (${why}), expected the body to be checked` },
      ],
    };
  }
}
