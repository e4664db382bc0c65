import type { Diagnostic } from './types.js';

/** A 1-based position in the file on disk. */
export interface Pos {
  line: number;
  column: number;
}

export const FILE_START: Pos = { line: 1, column: 1 };

/**
 * Maps a data path (ajv's instancePath split into segments) back to the place in the file that holds it.
 * Each parser that feeds a schema (YAML frontmatter, the POWER line format) supplies one.
 */
export interface Locator {
  /** Where the value at `path` starts (or its closest existing ancestor). */
  value(path: readonly string[]): Pos;
  /** Where the key of the entry at `path` starts (falls back to the value). */
  key(path: readonly string[]): Pos;
}

/** Appends without spreading: `push(...list)` overflows the stack for lists of ~100k (a garbage file's findings). */
export function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

export function diag(pos: Pos, rule: string, message: string): Diagnostic {
  return { line: pos.line, column: pos.column, rule, message };
}

/**
 * Quotes a piece of content for a message: backticks, one line, at most 60 characters.
 * Messages must stay on one line because `error` joins them with `\n`.
 */
export function quote(value: unknown): string {
  let s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  s = s.replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  if (s.length > 60) s = `${s.slice(0, 57)}...`;
  return `\`${s}\``;
}

/** Line starts of a text, for turning string offsets into 1-based line/column. */
export class LineIndex {
  private readonly starts: number[] = [0];
  private readonly length: number;
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
    this.length = text.length;
  }
  /** Where line 2 starts (undefined for a text of one line): the line break before it tells CRLF from LF. */
  get secondLineStart(): number | undefined {
    return this.starts[1];
  }
  /**
   * The string offset of a 1-based position, or null when the position is not in the text; column 1
   * past the last line break (or one past the last character) is the end of the text.
   */
  offset(line: number, column: number): number | null {
    const start = this.starts[line - 1];
    if (start === undefined) return null;
    const next = this.starts[line] ?? this.length + 1;
    const offset = start + column - 1;
    return offset < next || (line === this.starts.length && offset === this.length) ? offset : null;
  }
  get lineCount(): number {
    return this.starts.length;
  }
  pos(offset: number): Pos {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}
