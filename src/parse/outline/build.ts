/**
 * The outline walk: a body's blocks against a compiled outline, into the OutlineModel. One walker over
 * one block list: each level finds its sections between headings of its level or above, then each
 * first occurrence of a known section reads its content (prose, a container's own level, list bullets,
 * Updates entries). Pure; an exception here is a bug and propagates.
 */
import { firstNonBlank, readBody } from './blocks.js';
import type { Block, BodyText } from './blocks.js';
import type { CompiledOutline, OutlineNode } from './data.js';
import { record } from '../../model/records.js';
import type {
  BodySection,
  Bullet,
  ContainerCheck,
  ContainerSection,
  FoundHeading,
  LevelScan,
  ListCheck,
  ListItemEntry,
  ListSection,
  OutlineBody,
  OutlineModel,
  ReferenceItem,
  ReferencesSection,
  StrayScope,
  UpdateEntry,
  UpdatesCheck,
  UpdatesSection,
} from './model.js';

/** `<TAG> <id>:` then the title, on the lead paragraph of a list bullet. */
const ITEM_LEAD = /^(\S+)([ \t]+)(\S+?):(?:[ \t]+(\S.*))?$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})\.(\d{3})(?:Z|([+-])(\d{2}):(\d{2}))/;
const TIMESTAMP_LIKE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d[\d:.]*(?:Z|[+-][\d:]+)?)?/;
const ENTRY_SEPARATOR = /^( - | : )(.*)$/;

/**
 * Longest strictly increasing subsequence of `values` (small non-negative integers: outline indices),
 * earliest positions preferred; returns kept positions, or null when every one is kept. O(n log n):
 * `best[i]`, the longest run starting at i, comes from a Fenwick tree of maxima over the values seen to
 * the right.
 */
function keptInOrder(values: readonly number[]): Set<number> | null {
  const n = values.length;
  // The usual case, every section in order: all are kept (null), without the tree.
  let rising = true;
  for (let i = 1; i < n && rising; i++) rising = values[i]! > values[i - 1]!;
  if (rising) return null;
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

const byBlock = (f: FoundHeading): number => f.block;
const byNode = (f: FoundHeading): number => f.node;

/** A paragraph's lines, trimmed, the empty ones left out, joined by a space (no array per paragraph: it runs for every bullet). */
function joinLines(s: string): string {
  let end = s.indexOf('\n');
  if (end === -1) return s.trim();
  let out = '';
  for (let start = 0; ; end = s.indexOf('\n', start)) {
    const line = (end === -1 ? s.slice(start) : s.slice(start, end)).trim();
    if (line !== '') out = out === '' ? line : out + ' ' + line;
    if (end === -1) return out;
    start = end + 1;
  }
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Milliseconds since the epoch of a TIMESTAMP match, or NaN when the date or time does not exist. */
function instant(m: RegExpExecArray): number {
  const [y, mo, d, h, mi, s, ms] = [1, 2, 3, 4, 5, 6, 7].map((i) => Number(m[i])) as [number, number, number, number, number, number, number];
  const sign = m[8] === '-' ? -1 : 1;
  const oh = m[8] ? Number(m[9]) : 0;
  const om = m[8] ? Number(m[10]) : 0;
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return NaN;
  return Date.UTC(y, mo - 1, d, h, mi, s, ms) - sign * (oh * 60 + om) * 60_000;
}

class Walk {
  readonly levels: LevelScan[] = [];
  readonly strays: StrayScope[] = [];
  readonly containers: ContainerCheck[] = [];
  readonly lists: ListCheck[] = [];
  readonly updates: UpdatesCheck[] = [];

  constructor(
    readonly text: BodyText,
    readonly blocks: readonly Block[],
  ) {}

  /** First body line of block `i` (the end of the body when `i` is past the last block). */
  private lineOfBlock(i: number): number {
    const b = this.blocks[i];
    return b === undefined ? this.text.lines.length : b.line0;
  }

  /**
   * The sections of `parent` (headings at parent.level + 1) among blocks [from, to), into `out`.
   * Returns the index of the first heading that starts a section (or `to`): blocks before it are the
   * parent's own content.
   */
  sections(parent: OutlineNode, from: number, to: number, out: Record<string, unknown>): number {
    const level = parent.level + 1;
    const { blocks } = this;
    const boundaries: number[] = [];
    for (let i = from; i < to; i++) {
      const h = blocks[i]!.hLevel;
      if (h >= 1 && h <= level) boundaries.push(i);
    }
    const introEnd = boundaries[0] ?? to;
    if (parent.level === 1) this.strays.push({ from, to: introEnd, level, under: null });
    const found: FoundHeading[] = [];
    for (let k = 0; k < boundaries.length; k++) {
      const bi = boundaries[k]!;
      const end = boundaries[k + 1] ?? to;
      const b = blocks[bi]!;
      if (b.hLevel < level) this.strays.push({ from: bi + 1, to: end, level, under: null });
      else found.push({ block: bi, end, node: parent.byDisplay.get(b.text) ?? -1, state: 'in-order', other: -1, belongsBefore: false });
    }
    const scan: LevelScan = { parent, level, headings: found, missing: [] };
    this.levels.push(scan);

    // Unknown and repeated headings; first occurrences go on. `seen[m]`: child m has a section.
    const firsts: FoundHeading[] = [];
    const seen: boolean[] = new Array<boolean>(parent.children.length).fill(false);
    for (const f of found) {
      if (f.node < 0) f.state = 'unknown';
      else if (seen[f.node]) f.state = 'repeated';
      else {
        seen[f.node] = true;
        firsts.push(f);
      }
    }

    // A `last` section followed by any section heading of its level.
    const ordered: FoundHeading[] = [];
    for (let i = 0; i < found.length; i++) {
      const f = found[i]!;
      if (f.state !== 'in-order') continue;
      const next = found[i + 1];
      if (parent.children[f.node]!.last && next !== undefined) {
        f.state = 'not-last';
        f.other = next.block;
      } else {
        ordered.push(f);
      }
    }

    // Order: the longest in-order run stays, every other section is out of order.
    const kept = keptInOrder(ordered.map((f) => f.node));
    const keptList = kept === null ? ordered : ordered.filter((_, i) => kept.has(i));
    if (kept !== null) {
      for (let i = 0; i < ordered.length; i++) {
        if (kept.has(i)) continue;
        const f = ordered[i]!;
        // keptList rises in both block and node: the kept sections before this one are a prefix, after it a suffix.
        const split = lowerBound(keptList, f.block, byBlock);
        const firstAbove = lowerBound(keptList, f.node + 1, byNode, 0, split);
        const before = firstAbove < split ? keptList[firstAbove] : undefined;
        const lastBelow = lowerBound(keptList, f.node, byNode, split) - 1;
        const after = lastBelow >= split ? keptList[lastBelow] : undefined;
        f.state = 'out-of-order';
        f.other = (before ?? after)?.node ?? -1;
        f.belongsBefore = before !== undefined;
      }
    }

    // Missing mandatory sections, reported at the heading that came instead (or where the parent ends).
    const { children } = parent;
    for (let m = 0; m < children.length; m++) {
      const node = children[m]!;
      if (!node.mandatory || seen[m]) continue;
      const below = lowerBound(keptList, m, byNode) - 1;
      const pred = below >= 0 ? keptList[below] : undefined;
      const at = pred ? found[lowerBound(found, pred.block + 1, byBlock)] : found[0];
      scan.missing.push({ node, at: at ? at.block : to });
    }

    // Content of every recognised section (first occurrence), in document order.
    for (const f of firsts) {
      const node = children[f.node]!;
      out[node.key] = this.content(node, f);
    }
    return introEnd;
  }

  /** The content of a section found (its first occurrence), by its kind. */
  private content(node: OutlineNode, f: FoundHeading): BodySection {
    const head = this.blocks[f.block]!;
    const line = this.text.fileLine(head.line0);
    const from = f.block + 1;
    switch (node.kind) {
      case 'prose':
        this.strays.push({ from, to: f.end, level: node.level, under: node });
        return { text: this.text.raw(head.line1, this.lineOfBlock(f.end)), line };
      case 'container': {
        const section = Object.assign(record<BodySection | string | number>(), { text: '', line }) as ContainerSection;
        const introEnd = this.sections(node, from, f.end, section);
        section.text = this.text.raw(head.line1, this.lineOfBlock(introEnd));
        this.containers.push({ node, block: f.block, present: node.children.filter((c) => c.key in section).length });
        return section;
      }
      case 'list':
      case 'bullets':
        this.strays.push({ from, to: f.end, level: node.level, under: node });
        return this.bullets(node, f.block, from, f.end);
      case 'updates':
        return this.updateEntries(node, f.block, from, f.end);
    }
  }

  /** The bullets of a list or bullets section: each one's form, and the items or references of the body. */
  private bullets(node: OutlineNode, block: number, from: number, to: number): ListSection | ReferencesSection {
    const { text } = this;
    const items: ListItemEntry[] = [];
    const refs: ReferenceItem[] = [];
    const bullets: Bullet[] = [];
    this.lists.push({ node, block, bullets });
    for (let bi = from; bi < to; bi++) {
      const b = this.blocks[bi]!;
      if (b.type !== 'bullet_list' && b.type !== 'ordered_list') continue;
      for (const li of b.items ?? []) {
        const line0 = li.line0 ?? b.line0;
        const bullet: Bullet = { form: 'numbered', line0, text: '', source: li, entry: null };
        bullets.push(bullet);
        if (b.type === 'ordered_list') continue;
        if (li.leadType !== 'paragraph_open') {
          bullet.form = 'no-text';
          continue;
        }
        const leadText = joinLines(li.leadText);
        bullet.text = leadText;
        if (node.kind === 'bullets') {
          bullet.form = 'reference';
          refs.push({ text: leadText, line: text.fileLine(line0) });
          continue;
        }
        const m = ITEM_LEAD.exec(leadText);
        if (m === null || m[4] === undefined) {
          bullet.form = m !== null ? 'untitled' : 'not-an-item';
          continue;
        }
        const [, tag, , id, title] = m as unknown as [string, string, string, string, string];
        const notes: string[] = [];
        for (const kid of li.rest ?? []) {
          const note = kid.type === 'paragraph_open' ? joinLines(kid.text) : kid.line0 >= 0 ? text.dedent(kid.line0, kid.line1) : '';
          if (note !== '') notes.push(note);
        }
        bullet.form = 'item';
        items.push((bullet.entry = { tag, id, title: title.trim(), notes, line: text.fileLine(line0) }));
      }
    }
    return node.kind === 'bullets' ? { items: refs } : { items };
  }

  /** The entries of an Updates section: each heading's form and instant, whether it has content, and the items of the body. */
  private updateEntries(node: OutlineNode, block: number, from: number, to: number): UpdatesSection {
    const { text, blocks } = this;
    const level = node.level + 1;
    const items: UpdatesSection['items'] = [];
    const starts: number[] = [];
    for (let i = from; i < to; i++) if (blocks[i]!.hLevel === level) starts.push(i);
    const firstEntry = starts[0] ?? to;
    let stray = -1;
    for (let i = from; i < firstEntry && stray < 0; i++) {
      const b = blocks[i]!;
      if (!(b.type === 'html_block' && text.line(b.line0).trimStart().startsWith('<!--'))) stray = i;
    }
    const entries: UpdateEntry[] = [];
    this.updates.push({ node, block, level, stray, entries });
    starts.forEach((bi, k) => {
      const b = blocks[bi]!;
      const end = starts[k + 1] ?? to;
      const body = text.raw(b.line1, this.lineOfBlock(end));
      const textAt = text.headingTextStart(b);
      const entry: UpdateEntry = {
        block: bi,
        empty: body === '',
        form: 'no-timestamp',
        written: '',
        textColumn: textAt + 1,
        detail: '',
        detailColumn: 0,
        instant: NaN,
      };
      entries.push(entry);
      const m = TIMESTAMP.exec(b.text);
      if (m === null) {
        const like = TIMESTAMP_LIKE.exec(b.text);
        if (like !== null) {
          entry.form = like[0].length === 10 ? 'date-only' : 'bad-timestamp';
          entry.written = like[0];
        }
        return;
      }
      const ts = m[0];
      entry.written = ts;
      const at = instant(m);
      if (Number.isNaN(at)) {
        entry.form = 'nonexistent';
        return;
      }
      const rest = b.text.slice(ts.length);
      const sep = ENTRY_SEPARATOR.exec(rest);
      if (sep === null || sep[2]!.trim() === '') {
        if (/^\s*[-:]?\s*$/.test(rest)) {
          entry.form = 'untitled';
        } else {
          const lead = rest.length - rest.trimStart().length;
          const token = /^[^\p{L}\p{N}\s]*/u.exec(rest.trimStart())![0];
          entry.form = token !== '' ? 'separator' : 'glued';
          entry.detail = token !== '' ? token : rest;
          entry.detailColumn = textAt + ts.length + lead + 1;
        }
        return;
      }
      entry.form = 'entry';
      entry.instant = at;
      items.push({ timestamp: ts, title: sep[2]!.trim(), text: body, line: text.fileLine(b.line0) });
    });
    return { items };
  }
}

/** The body line of a list item's lead paragraph (where its tag and id are). */
export function itemLine(bullet: Bullet): number {
  return bullet.source.leadLine0 >= 0 ? bullet.source.leadLine0 : bullet.line0;
}

/**
 * Where a list item's tag and id start (1-based columns on `itemLine`): after the marker on the
 * bullet's line, else at its own line's indentation; an id wrapped onto the next line is placed at the
 * start of the lead. Computed for the items a rule reports, not for every bullet.
 */
export function itemColumns(text: BodyText, bullet: Bullet): { tag: number; id: number } {
  const line0 = itemLine(bullet);
  let contentAt: number;
  if (line0 === bullet.line0) {
    const raw = text.line(line0);
    contentAt = firstNonBlank(raw) + Math.max(1, bullet.source.markerLength);
    while (raw[contentAt] === ' ' || raw[contentAt] === '\t') contentAt++;
  } else {
    contentAt = firstNonBlank(text.line(line0));
  }
  const idOffset = /^\S+[ \t]+/.exec(bullet.text)?.[0].length ?? 0;
  const firstLength = text.line(line0).length - contentAt;
  return { tag: contentAt + 1, id: idOffset < firstLength ? contentAt + idOffset + 1 : contentAt + 1 };
}

/**
 * The model of a body against an outline. body = the file text after the frontmatter; bodyLineOffset
 * = the number of file lines before it; name = what messages call the outline when its data has no
 * `name` (the kind's).
 */
export function buildOutlineModel(body: string, bodyLineOffset: number, outline: CompiledOutline, name: string): OutlineModel {
  const { text, blocks } = readBody(body, bodyLineOffset);
  const h1s: number[] = [];
  for (let i = 0; i < blocks.length; i++) if (blocks[i]!.hLevel === 1) h1s.push(i);
  const walk = new Walk(text, blocks);
  const out: OutlineBody = record();
  walk.sections(outline.root, 0, blocks.length, out);
  return {
    outline,
    name: outline.name ?? name,
    text,
    blocks,
    title: h1s.length > 0 ? blocks[h1s[0]!]!.text : null,
    h1s,
    levels: walk.levels,
    strays: walk.strays,
    containers: walk.containers,
    lists: walk.lists,
    updates: walk.updates,
    body: out,
  };
}
