/**
 * markdown-it's block stream turned into the blocks the outline walk reads: the top-level blocks of a
 * body (token level 0: a heading inside a list item, a block quote or an HTML block is content, never a
 * section) and the items of top-level lists, kept as small records while markdown-it parses (no token
 * list is kept), with inline parsing switched off. Also the body's lines and positions on disk.
 */
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import type { Pos } from '../../model/position.js';
import { scanBlocks } from './scan.js';
import type { Block, ItemChild, ListItem } from './block.js';

export type { Block, ItemChild, ListItem };

// Loaded on first use (synchronously, through its CommonJS build): a lint of processes only never pays for it.
const require = createRequire(import.meta.url);
let parser: MarkdownIt | undefined;
/** markdown-it in CommonMark mode, one instance per process. Only block structure and the raw `content` of inline tokens are read. */
function markdown(): MarkdownIt {
  if (parser === undefined) {
    const MarkdownItClass = require('markdown-it') as typeof MarkdownIt;
    parser = new MarkdownItClass('commonmark');
    // `normalize` is done by us before parsing (CR and NUL, see `readBody`), so markdown-it's second pass
    // over every body (two regular expressions over the whole text) is skipped.
    parser.core.ruler.disable(['normalize', 'inline', 'text_join'], true);
  }
  return parser;
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
  private leadType: string | null = null;
  private leadLine0 = -1;
  private leadText = '';
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
    if (this.leadType === null) {
      this.leadType = c.type;
      this.leadLine0 = c.map ? c.map[0] : -1;
      this.leadText = this.childText?.content ?? '';
    } else {
      (this.rest ??= []).push({ type: c.type, line0: c.map ? c.map[0] : -1, line1: c.map ? c.map[1] : -1, text: this.childText?.content ?? '' });
    }
    this.child = null;
    this.childText = null;
  }

  private endItem(): void {
    const li = this.item;
    if (li === null) return;
    this.items!.push({
      line0: li.map ? li.map[0] : null,
      markerLength: li.markup.length,
      leadType: this.leadType,
      leadLine0: this.leadLine0,
      leadText: this.leadText,
      rest: this.rest,
    });
    this.item = null;
    this.leadType = null;
    this.leadLine0 = -1;
    this.leadText = '';
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

/** The top-level blocks of a body by markdown-it (`src` already normalized: no CR, no NUL). */
export function markdownItBlocks(src: string): Block[] {
  const md = markdown();
  const stream = new BlockStream();
  // The core rules left on are `block` alone (see `markdown()`), which is this call.
  md.block.parse(src, md, {}, stream as unknown as Token[]);
  return stream.finish();
}

/** Index of the first character of `s` that is not a blank (0 when there is none). */
export function firstNonBlank(s: string): number {
  const m = /[^ \t]/.exec(s);
  return m === null ? 0 : m.index;
}

/**
 * A body's lines and where they sit in the file: body line `line0` (0-based) is file line
 * `offset + line0 + 1`. Only LF ends a line (a CR before it is dropped; a lone CR is not a line break,
 * as in `splitFrontmatter`). Columns are 1-based UTF-16 columns of the line on disk.
 */
export class BodyText {
  /** Where each line starts in `joined`, found on first use. */
  private starts: number[] | null = null;

  constructor(
    readonly lines: readonly string[],
    readonly offset: number,
    /** The lines joined with LF, when the caller has that text already (the body without CR): `raw` cuts it instead of joining lines. */
    private readonly joined: string | null = null,
  ) {}

  line(line0: number): string {
    return this.lines[line0] ?? '';
  }

  fileLine(line0: number): number {
    return this.offset + line0 + 1;
  }

  /** The column (1-based) of the first non-blank character of a body line: where a block starts. */
  startColumn(line0: number): number {
    return firstNonBlank(this.line(line0)) + 1;
  }

  /** Where the end of the body is reported: its last line that is not the empty one after a final LF. */
  end(): Pos {
    const n = this.lines.length - (this.lines[this.lines.length - 1] === '' ? 1 : 0);
    return { line: n > 0 ? this.offset + n : Math.max(1, this.offset), column: 1 };
  }

  /** Index in its line where an ATX heading's text starts (after the `#`s and blanks). */
  headingTextStart(b: Block): number {
    const raw = this.line(b.line0);
    let i = firstNonBlank(raw);
    if (raw[i] !== '#') return i;
    while (raw[i] === '#') i++;
    while (raw[i] === ' ' || raw[i] === '\t') i++;
    return i;
  }

  /** Lines [from, to) as written, joined with LF and trimmed. */
  raw(from: number, to: number): string {
    const end = Math.min(to, this.lines.length);
    if (this.joined === null || from >= end) return this.lines.slice(from, Math.max(from, to)).join('\n').trim();
    // A cut of the text, not a join of its lines: the same string, without an array and a copy per section.
    if (this.starts === null) {
      const starts = new Array<number>(this.lines.length);
      let at = 0;
      for (let i = 0; i < this.lines.length; i++) {
        starts[i] = at;
        at += this.lines[i]!.length + 1;
      }
      this.starts = starts;
    }
    return this.joined.slice(this.starts[from]!, this.starts[end - 1]! + this.lines[end - 1]!.length).trim();
  }

  /** Lines [from, to) without the indentation they share, trimmed. */
  dedent(from: number, to: number): string {
    const ls = this.lines.slice(from, to);
    let min = Infinity;
    for (const l of ls) if (l.trim() !== '') min = Math.min(min, firstNonBlank(l));
    return ls
      .map((l) => l.slice(Number.isFinite(min) ? min : 0))
      .join('\n')
      .trim();
  }
}

/**
 * `DOCGATE_BLOCK_PARSER=markdown-it` parses every body with markdown-it, never the scanner: the json
 * reports of both paths are compared by a test (test/outline-scanner.test.ts) and can be by hand.
 */
const scannerOff = process.env.DOCGATE_BLOCK_PARSER === 'markdown-it';

/**
 * A body as markdown-it reads it. What markdown-it's own `normalize` rule would do is done here: no CR
 * reaches it (markdown-it would break lines at a lone CR; on disk only LF ends a line), NUL becomes
 * U+FFFD. `lines`: the lines on disk (a CR before LF dropped); `src` and `srcLines`: what is parsed.
 */
export function normalizeBody(body: string): { lines: string[]; src: string; srcLines: string[] } {
  let lines = body.split('\n');
  let src = body;
  if (body.includes('\r')) {
    lines = lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    src = lines.map((l) => (l.includes('\r') ? l.replace(/\r/g, ' ') : l)).join('\n');
  }
  if (src.includes('\0')) src = src.replace(/\0/g, '\uFFFD');
  return { lines, src, srcLines: src === body ? lines : src.split('\n') };
}

/** A body's lines and blocks: by the scanner (scan.ts) when it is sure of the body, else by markdown-it (loaded then). */
export function readBody(body: string, offset: number): { text: BodyText; blocks: Block[] } {
  const { lines, src, srcLines } = normalizeBody(body);
  const blocks = scannerOff ? null : scanBlocks(src, srcLines);
  return { text: new BodyText(lines, offset, src === body ? body : null), blocks: blocks ?? markdownItBlocks(src) };
}
