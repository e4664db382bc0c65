/**
 * The body pass of the usual document without markdown-it: a line scanner for the block constructs
 * SysRS bodies are made of (ATX headings, paragraphs, fences, one-line-start HTML comments, and
 * top-level bullet and ordered lists whose items hold paragraphs), producing exactly the `Block`s markdown-it's block
 * pass gives (`markdownItBlocks` in blocks.ts): the same types, lines, heading and paragraph texts.
 *
 * It is conservative, not complete. Each rule below is markdown-it 14's (CommonMark preset: no tables)
 * restricted to the cases it handles; on a line where some other construct could start — a block
 * quote, a thematic break or setext underline, an indented list marker, an
 * empty item, a nested block inside an item, indented code, HTML other than `<!--`, a possible link
 * reference definition, a tab in an item's indentation — it gives up and returns null, and the caller
 * parses that body with markdown-it. A fallback costs time; a difference would cost a wrong finding.
 * test/outline-scanner.test.ts runs both on every SysRS of a generated corpus, the fixtures and hostile
 * bodies and asserts the same blocks.
 */
import type { Block, ItemChild, ListItem } from './block.js';

/** What a line (from its first non-blank character) could start, as far as the scanner needs to know. */
const enum Start {
  /** Text: a paragraph starts here, and it does not end one. */
  Text,
  Heading,
  Fence,
  /** `<!--`: an HTML block of type 2 (it ends at the line holding `-->`). */
  Comment,
  /** `-`, `*` or `+`, then 1–4 spaces, then text: a bullet list item (where it may start, see the callers). */
  Bullet,
  /** Up to 9 digits, `.` or `)`, then 1–4 spaces, then text: an ordered list item. */
  Ordered,
  /** Anything the scanner does not handle: parse the body with markdown-it. */
  Unsure,
}

const SPACE = 0x20;
const TAB = 0x09;
const isSpace = (c: number): boolean => c === SPACE || c === TAB;
/** markdown-it's `asciiTrim` (not String.prototype.trim: a no-break space at either end stays). */
function asciiTrim(s: string): string {
  const keep = (c: number): boolean => c !== SPACE && c !== TAB && c !== 0x0a && c !== 0x0d;
  let a = 0;
  let b = s.length;
  while (a < b && !keep(s.charCodeAt(a))) a++;
  while (b > a && !keep(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** Index after the run of ASCII digits of `line` from `p`. */
function digitsEnd(line: string, p: number): number {
  let q = p;
  while (q < line.length && line.charCodeAt(q) >= 0x30 && line.charCodeAt(q) <= 0x39) q++;
  return q;
}

/** Thrown (and caught in `scanBlocks`) when the scanner is not sure: the body goes to markdown-it. */
class Unsure extends Error {}
const UNSURE = new Unsure();

class Scanner {
  readonly blocks: Block[] = [];
  /** Lines markdown-it sees: a last line of blanks only (or empty, after a final LF) is not one. */
  readonly n: number;
  /** Measured by `measure`: index of the first character that is not a space or tab, its column with tabs expanded, and whether a tab came before it. */
  private tShift = 0;
  private sCount = 0;
  private tab = false;

  constructor(
    readonly lines: readonly string[],
    /** Whether `]:` occurs in the body: only then can a `[` start a link reference definition. */
    readonly refColon: boolean,
  ) {
    let n = lines.length;
    const last = lines[n - 1]!;
    this.measure(last);
    if (this.tShift === last.length) n--;
    this.n = n;
  }

  /** Sets tShift, sCount and tab for `line` (as markdown-it's StateBlock computes them); true when it is blank. */
  private measure(line: string): boolean {
    let i = 0;
    let col = 0;
    let tab = false;
    for (; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === SPACE) col++;
      else if (c === TAB) {
        col += 4 - (col % 4);
        tab = true;
      } else break;
    }
    this.tShift = i;
    this.sCount = col;
    this.tab = tab;
    return i === line.length;
  }

  /** What `line` could start at `p` (its first non-blank character; the content after a list marker on an item's first line). */
  private start(line: string, p: number): Start {
    const c = line.charCodeAt(p);
    switch (c) {
      case 0x23 /* # */:
        {
          let q = p + 1;
          while (line.charCodeAt(q) === 0x23) q++;
          return q - p <= 6 && (q === line.length || isSpace(line.charCodeAt(q))) ? Start.Heading : Start.Text;
        }
      case 0x60 /* ` */:
      case 0x7e /* ~ */:
        {
          let q = p + 1;
          while (line.charCodeAt(q) === c) q++;
          if (q - p < 3) return Start.Text;
          // A backtick in a backtick fence's info string makes it text: rare, left to markdown-it.
          return c === 0x60 && line.indexOf('`', q) >= 0 ? Start.Unsure : Start.Fence;
        }
      case 0x3c /* < */:
        {
          if (line.startsWith('<!--', p)) return Start.Comment;
          // Every other HTML block start is `<` then a letter, `/`, `!` or `?`.
          const d = line.charCodeAt(p + 1);
          return (d >= 0x41 && d <= 0x5a) || (d >= 0x61 && d <= 0x7a) || d === 0x2f || d === 0x21 || d === 0x3f ? Start.Unsure : Start.Text;
        }
      case 0x3e /* > */:
        return Start.Unsure;
      case 0x2d /* - */:
      case 0x2a /* * */:
      case 0x2b /* + */:
      case 0x5f /* _ */:
      case 0x3d /* = */:
        {
          // One character repeated, blanks between: a thematic break, a setext underline, an empty item.
          let q = p + 1;
          for (; q < line.length; q++) {
            const d = line.charCodeAt(q);
            if (d !== c && !isSpace(d)) break;
          }
          if (q === line.length) return Start.Unsure;
          if (c === 0x5f || c === 0x3d) return Start.Text;
          const d = line.charCodeAt(p + 1);
          if (!isSpace(d)) return Start.Text;
          if (d === TAB) return Start.Unsure;
          // 1–4 spaces then text; 5 or more make the text indented code.
          let r = p + 1;
          while (line.charCodeAt(r) === SPACE) r++;
          return r - p - 1 <= 4 && line.charCodeAt(r) !== TAB ? Start.Bullet : Start.Unsure;
        }
      case 0x5b /* [ */:
        return this.refColon ? Start.Unsure : Start.Text;
      default: {
        if (c >= 0x30 && c <= 0x39) {
          // Digits, `.` or `)`, then a blank or the end: an ordered list item (`1.5 ms` is text).
          const q = digitsEnd(line, p);
          const d = line.charCodeAt(q);
          if ((d === 0x2e || d === 0x29) && (q + 1 === line.length || isSpace(line.charCodeAt(q + 1)))) {
            // Empty items, more than 9 digits (text to markdown-it), tabs and indented code after the marker: Unsure.
            if (q - p > 9 || line.charCodeAt(q + 1) === TAB) return Start.Unsure;
            let r = q + 1;
            while (line.charCodeAt(r) === SPACE) r++;
            return r < line.length && r - q - 1 <= 4 && line.charCodeAt(r) !== TAB ? Start.Ordered : Start.Unsure;
          }
        }
        return Start.Text;
      }
    }
  }

  /** The top-level blocks, or null when markdown-it must parse this body. */
  scan(): Block[] | null {
    try {
      this.top();
    } catch (e) {
      if (e === UNSURE) return null;
      throw e;
    }
    return this.blocks;
  }

  private push(type: string, line0: number, line1: number, hLevel = 0, text = '', items: ListItem[] | null = null): void {
    this.blocks.push({ type, line0, line1, hLevel, text, items });
  }

  private top(): void {
    const { lines, n } = this;
    let i = 0;
    while (i < n) {
      const line = lines[i]!;
      if (this.measure(line)) {
        i++;
        continue;
      }
      if (this.sCount >= 4) throw UNSURE;
      const p = this.tShift;
      switch (this.start(line, p)) {
        case Start.Text:
          i = this.paragraph(i, 0);
          this.push('paragraph', this.paraFrom, i);
          break;
        case Start.Heading:
          this.heading(i, p);
          i++;
          break;
        case Start.Fence:
          i = this.fence(i, p);
          break;
        case Start.Comment:
          i = this.comment(i);
          break;
        case Start.Bullet:
        case Start.Ordered:
          if (p !== 0) throw UNSURE;
          i = this.list(i);
          break;
        default:
          throw UNSURE;
      }
    }
  }

  /** First line of the last paragraph scanned. */
  private paraFrom = 0;

  /**
   * A paragraph from line `from` in a container whose content starts at column `indent` (0 at the top,
   * an item's content column in a list): returns the line after it. markdown-it's `paragraph` (and
   * `lheading`, which never matches here: every underline-like line is Unsure): it runs to a blank
   * line or a line that starts a heading, fence, HTML block or list; lines indented 4 or more past
   * `indent` go on without a look.
   */
  private paragraph(from: number, indent: number): number {
    const { lines, n } = this;
    this.paraFrom = from;
    let j = from + 1;
    for (; j < n; j++) {
      const line = lines[j]!;
      if (this.measure(line)) break;
      if (indent > 0 && this.tab) throw UNSURE;
      if (this.sCount - indent > 3) continue;
      const s = this.start(line, this.tShift);
      if (s === Start.Text) continue;
      if (s === Start.Unsure) throw UNSURE;
      // A bullet ends the paragraph (it is never empty here). Only one at column 0 is handled: in an
      // item it starts the next item, at the top a list.
      if ((s === Start.Bullet || s === Start.Ordered) && this.sCount !== 0) throw UNSURE;
      // An ordered item interrupts a paragraph at its own column only from 1 (at the top); an item's
      // paragraph is interrupted by any (its line is lazy there, as markdown-it's list rule sees it).
      if (s === Start.Ordered && indent === 0 && Number(line.slice(0, digitsEnd(line, 0))) !== 1) continue;
      break;
    }
    return j;
  }

  /** An ATX heading on line `i`, its `#`s at `p`: its text as markdown-it cuts it (closing `#`s and blanks dropped). */
  private heading(i: number, p: number): void {
    const line = this.lines[i]!;
    let pos = p;
    while (line.charCodeAt(pos) === 0x23) pos++;
    const level = pos - p;
    let max = line.length;
    while (max > pos && isSpace(line.charCodeAt(max - 1))) max--;
    let tmp = max;
    while (tmp > pos && line.charCodeAt(tmp - 1) === 0x23) tmp--;
    if (tmp > pos && isSpace(line.charCodeAt(tmp - 1))) max = tmp;
    this.push('heading', i, i + 1, level, asciiTrim(line.slice(pos, max)));
  }

  /** A fence opened on line `i` at `p`: it ends after a closing line (same character, at least as many, indented less than 4, blanks after), else at the end. */
  private fence(i: number, p: number): number {
    const { lines, n } = this;
    const open = lines[i]!;
    const marker = open.charCodeAt(p);
    let len = p + 1;
    while (open.charCodeAt(len) === marker) len++;
    len -= p;
    let j = i + 1;
    for (; j < n; j++) {
      const line = lines[j]!;
      this.measure(line);
      let q = this.tShift;
      if (line.charCodeAt(q) !== marker || this.sCount >= 4) continue;
      const at = q;
      while (line.charCodeAt(q) === marker) q++;
      if (q - at < len) continue;
      while (q < line.length && isSpace(line.charCodeAt(q))) q++;
      if (q < line.length) continue;
      this.push('fence', i, j + 1);
      return j + 1;
    }
    this.push('fence', i, n);
    return n;
  }

  /** An HTML comment block from line `i`: through the line holding `-->` (this one included), else to the end. */
  private comment(i: number): number {
    const { lines, n } = this;
    let j = i;
    while (j < n && !lines[j]!.includes('-->')) j++;
    const end = j < n ? j + 1 : n;
    this.push('html_block', i, end);
    return end;
  }

  /**
   * A bullet or ordered list at column 0 from line `i`: items while one with the same marker (or
   * delimiter) follows at column 0 (another ends the list, and starts the next one). An item's
   * content column is past its marker and the spaces after it; an item is its lead paragraph, then
   * paragraphs indented at least that far after blank lines; it ends at the first non-blank line
   * indented less (the blank lines before it are the item's, as in markdown-it's maps).
   */
  private list(i: number): number {
    const { lines, n } = this;
    const items: ListItem[] = [];
    const line0 = i;
    const ordered = this.start(lines[i]!, 0) === Start.Ordered;
    // Items go on while they have the same marker: `-`, `*` or `+`, or an ordered item's `.` or `)`.
    const markerAt = (line: string): number => line.charCodeAt(ordered ? digitsEnd(line, 0) : 0);
    const marker = markerAt(lines[i]!);
    let at = i;
    for (;;) {
      const line = lines[at]!;
      let contentStart = ordered ? digitsEnd(line, 0) + 1 : 1;
      while (line.charCodeAt(contentStart) === SPACE) contentStart++;
      const indent = contentStart;
      // The lead: a paragraph whose first line is the text after the marker.
      if (this.start(line, contentStart) !== Start.Text) throw UNSURE;
      let end = this.paragraph(at, indent);
      const item: ListItem = {
        line0: at,
        markerLength: 1,
        leadType: 'paragraph_open',
        leadLine0: at,
        leadText: this.text(at, end, indent, contentStart),
        rest: null,
      };
      items.push(item);
      // The item's other blocks: paragraphs at its content column.
      for (;;) {
        while (end < n && this.measure(lines[end]!)) end++;
        if (end >= n || this.sCount < indent) break;
        if (this.tab || this.sCount - indent >= 4 || this.start(lines[end]!, this.tShift) !== Start.Text) throw UNSURE;
        const from = end;
        end = this.paragraph(from, indent);
        const child: ItemChild = { type: 'paragraph_open', line0: from, line1: end, text: this.text(from, end, indent, -1) };
        (item.rest ??= []).push(child);
      }
      at = end;
      if (at >= n) break;
      // `measure` was last called on line `at` (by the blank skip or the paragraph's end).
      this.measure(lines[at]!);
      if (this.sCount >= 4) break;
      const s = this.start(lines[at]!, this.tShift);
      if (s === Start.Unsure) throw UNSURE;
      if (s !== Start.Bullet && s !== Start.Ordered) break;
      if (this.sCount !== 0) throw UNSURE;
      if ((s === Start.Ordered) !== ordered || markerAt(lines[at]!) !== marker) break;
    }
    this.push(ordered ? 'ordered_list' : 'bullet_list', line0, at, 0, '', items);
    return at;
  }

  /**
   * A paragraph's text in a container whose content starts at column `indent`, as markdown-it's
   * `getLines(from, to, indent)` then `asciiTrim` give it: each line without up to `indent` leading
   * spaces (tabs there are Unsure), the first from `firstAt` when it is an item's first line.
   */
  private text(from: number, to: number, indent: number, firstAt: number): string {
    const { lines } = this;
    let out = '';
    for (let l = from; l < to; l++) {
      const line = lines[l]!;
      let k = 0;
      if (l === from && firstAt >= 0) k = firstAt;
      else while (k < indent && line.charCodeAt(k) === SPACE) k++;
      if (line.charCodeAt(k) === TAB && k < indent) throw UNSURE;
      out += l === from ? line.slice(k) : '\n' + line.slice(k);
    }
    return asciiTrim(out);
  }
}

/**
 * The top-level blocks of a body as markdown-it's block pass gives them, or null when the body holds
 * something the scanner leaves to markdown-it. `lines`: the body split at LF, already normalized as
 * markdown-it would have it (no CR, no NUL); `src` their join (only searched for `]:`).
 */
export function scanBlocks(src: string, lines: readonly string[]): Block[] | null {
  if (src === '') return [];
  return new Scanner(lines, src.includes(']:')).scan();
}
