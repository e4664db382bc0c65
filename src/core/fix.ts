/**
 * Applying fixes (SPEC §11), as ESLint does: per pass every fix whose range does not overlap or touch
 * an earlier one, then the text is analyzed again, until no fix applies (at most MAX_PASSES). One
 * function serves `lint --fix`, `--fix-dry-run` and the MCP tool `check_content`.
 */
import { analyzeBytes } from './analyze.js';
import { decodeText } from './document-text.js';
import type { FileRef } from './layout.js';
import { LineIndex } from './position.js';
import type { Diagnostic, Fix } from './types.js';
import type { Project } from '../engine/project.js';

/** ESLint's limit: a rule pair that keeps undoing each other stops here. */
export const MAX_PASSES = 10;

/**
 * The text with the fixes applied that do not overlap: earlier ranges first, a fix overlapping or
 * touching an applied one left for the next pass. A file with CRLF line endings keeps them: line breaks
 * in a fix's text become CRLF there.
 */
export function applyFixes(text: string, fixes: readonly Fix[]): { text: string; applied: number } {
  const lines = new LineIndex(text);
  const second = lines.secondLineStart;
  const crlf = second !== undefined && text[second - 2] === '\r';
  const ranges: { start: number; end: number; text: string }[] = [];
  for (const f of fixes) {
    const start = lines.offset(f.line, f.column);
    const end = lines.offset(f.endLine, f.endColumn);
    if (start === null || end === null || end < start) continue;
    ranges.push({ start, end, text: crlf ? f.text.replace(/\r?\n/g, '\r\n') : f.text });
  }
  ranges.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let last = 0;
  let lastEnd = -1;
  let applied = 0;
  for (const r of ranges) {
    if (r.start <= lastEnd) continue;
    out += text.slice(last, r.start) + r.text;
    last = r.end;
    lastEnd = r.end;
    applied++;
  }
  return { text: out + text.slice(last), applied };
}

/** The fixes among a file's diagnostics. */
export function fixesOf(diagnostics: readonly Diagnostic[]): Fix[] {
  return diagnostics.flatMap((d) => (d.fix ? [d.fix] : []));
}

/**
 * A document's bytes after every fix that applies, or null when none does (or the bytes are not
 * UTF-8). Each pass analyzes the text as lint would, with the project's severities and directives: a
 * rule turned off or a finding disabled inline is not fixed.
 */
export function fixDocument(ref: Pick<FileRef, 'path' | 'kind' | 'lang'>, bytes: Uint8Array, project: Project): Buffer | null {
  // A file that is not UTF-8 is never fixed: no byte of it could be kept for sure.
  let text = decodeText(bytes);
  if (text === null) return null;
  let current: Uint8Array = bytes;
  let changed = false;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const fixes = fixesOf(analyzeBytes(ref, current, project).diagnostics);
    if (fixes.length === 0) break;
    const r = applyFixes(text, fixes);
    if (r.applied === 0 || r.text === text) break;
    text = r.text;
    current = Buffer.from(text, 'utf8');
    changed = true;
  }
  return changed ? Buffer.from(text, 'utf8') : null;
}
