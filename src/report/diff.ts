/**
 * The unified diff of a document and its text after every fix (`--fix-dry-run` in stylish), made by
 * jsdiff, as `git diff` prints one: `--- a/<path>`, `+++ b/<path>`, hunks with three lines of context.
 */
import { createRequire } from 'node:module';
import type * as JsDiff from 'diff';
import { escapeHidden } from '../model/hidden-unicode.js';
import { ansi } from './ansi.js';

// Loaded on first use (its CommonJS build), like markdown-it: a run that prints no diff never pays for it.
const require = createRequire(import.meta.url);
let jsdiff: typeof JsDiff | undefined;

/** C0 controls but tab and line feed, DEL and C1 controls; a carriage return only where no line feed follows it. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;

/**
 * A line as printed: a document's control characters (an escape sequence, a lone carriage return) as
 * `\x1b`-style escapes and its hidden characters as `\u{202E}`, so that a fix's diff cannot move the
 * cursor, rewrite what the terminal shows or hide what the line holds. A CRLF line end stays as it is.
 */
function printable(line: string): string {
  return escapeHidden(line.replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

/** The lines of the diff from `before` to `after` of the document at `path`, coloured as git colours them when `color`. */
export function unifiedDiff(path: string, before: string, after: string, color: boolean): string[] {
  jsdiff ??= require('diff') as typeof JsDiff;
  const patch = jsdiff.createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, {
    context: 3,
    headerOptions: jsdiff.FILE_HEADERS_ONLY,
  });
  const bold = ansi('1', color);
  const cyan = ansi('36', color);
  const red = ansi('31', color);
  const green = ansi('32', color);
  const lines = patch.replace(/\n$/, '').split('\n');
  return lines.map((raw, i) => {
    const line = printable(raw);
    if (i < 2) return bold(line);
    if (line.startsWith('@@')) return cyan(line);
    if (line.startsWith('-')) return red(line);
    if (line.startsWith('+')) return green(line);
    return line;
  });
}
