/**
 * Applying fixes (docs/formats.md, "Fixes"), as ESLint does: per pass every fix whose range does not overlap or touch
 * an earlier one, then the text is analyzed again, until no fix applies (at most MAX_PASSES). One
 * function serves `lint --fix`, `--fix-dry-run` and the MCP tool `check_content`.
 */
import { analyzeBytes } from './analyze.js';
import { utf8Text } from '../parse/file-stage.js';
import type { FileRef } from '../io/layout.js';
import { LineIndex } from '../model/position.js';
import type { Diagnostic, Fix } from '../model/types.js';
import type { Project } from '../project/project.js';

/** ESLint's limit: a rule pair that keeps undoing each other stops here. */
export const MAX_PASSES = 10;

/**
 * The text with the fixes applied that do not overlap: earlier ranges first, a fix overlapping or
 * touching an applied one left for the next pass. A file with CRLF line endings keeps them: line breaks
 * in a fix's text become CRLF there.
 */
export function applyFixes(text: string, fixes: readonly Fix[]): { text: string; applied: number } {
  const lines = new LineIndex(text);
  const ranges = fixes.flatMap((f) => fixRange(text, lines, f) ?? []);
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

/** A fix as string offsets of `text` and the text put there (CRLF line breaks in a CRLF file); null when its range is not in the text. */
function fixRange(text: string, lines: LineIndex, f: Fix): { start: number; end: number; text: string } | null {
  const start = lines.offset(f.line, f.column);
  const end = lines.offset(f.endLine, f.endColumn);
  if (start === null || end === null || end < start) return null;
  const second = lines.secondLineStart;
  const crlf = second !== undefined && text[second - 2] === '\r';
  return { start, end, text: crlf ? f.text.replace(/\r?\n/g, '\r\n') : f.text };
}

/** One fix as an edit of `text` (an editor's quick fix): the offsets it replaces and the text put there, as `applyFixes` would apply it alone. */
export function fixEdit(text: string, fix: Fix): { start: number; end: number; text: string } | null {
  return fixRange(text, new LineIndex(text), fix);
}

/** The fixes among a file's diagnostics. */
export function fixesOf(diagnostics: readonly Diagnostic[]): Fix[] {
  return diagnostics.flatMap((d) => (d.fix ? [d.fix] : []));
}

/** How many errors of each rule a file has (warnings do not make it fail). */
function errorCounts(diagnostics: readonly Diagnostic[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of diagnostics) if (d.severity === undefined) counts.set(d.rule, (counts.get(d.rule) ?? 0) + 1);
  return counts;
}

/** Whether a file has an error of a rule it had fewer of before: it would fail differently. */
function worse(after: readonly Diagnostic[], before: ReadonlyMap<string, number>): boolean {
  for (const [rule, n] of errorCounts(after)) if (n > (before.get(rule) ?? 0)) return true;
  return false;
}

/**
 * A document's bytes after every fix that applies, or null when none does (or the bytes are not
 * UTF-8). Each pass analyzes the text as lint would, with the project's severities and directives: a
 * rule turned off or a finding disabled inline is not fixed. The result never fails differently: when
 * the fixed text has more errors of some rule than the file had (two keys recased to one name, a quoted
 * value past the size limit), the passes are made again, each keeping only the fixes that bring no such
 * error (docs/reliability.md, "Fixes that conflict"). A first pass may reveal errors a file-level one hid
 * (a BOM removed): the passes after it fix them, so the result, not each pass, is what is compared first.
 */
export function fixDocument(ref: Pick<FileRef, 'path' | 'kind' | 'lang'>, bytes: Uint8Array, project: Project): Buffer | null {
  // A file that is not UTF-8 is never fixed: no byte of it could be kept for sure.
  // The BOM kept as the character it is: positions in the text are those of the diagnostics (file-bom's
  // fix removes it at 1:1).
  const text = utf8Text(bytes);
  if (text === null) return null;
  const analyze = (t: string): readonly Diagnostic[] => analyzeBytes(ref, Buffer.from(t, 'utf8'), project).diagnostics;
  const first = analyzeBytes(ref, bytes, project).diagnostics;
  const free = fixPasses(text, first, analyze, false);
  let fixed = free;
  if (free !== null && worse(free.diagnostics, errorCounts(first))) fixed = fixPasses(text, first, analyze, true);
  return fixed === null ? null : Buffer.from(fixed.text, 'utf8');
}

/**
 * The passes of fixes from `text` (whose diagnostics are `diagnostics`), or null when none changes it.
 * `careful`: a pass whose fixes together bring an error of a rule the text had fewer of keeps, one by
 * one in order, only the fixes that bring none.
 */
function fixPasses(
  text: string,
  diagnostics: readonly Diagnostic[],
  analyze: (t: string) => readonly Diagnostic[],
  careful: boolean,
): { text: string; diagnostics: readonly Diagnostic[] } | null {
  let changed = false;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const fixes = fixesOf(diagnostics);
    if (fixes.length === 0) break;
    let r = applyFixes(text, fixes);
    if (r.applied === 0 || r.text === text) break;
    let after = analyze(r.text);
    if (careful && worse(after, errorCounts(diagnostics))) {
      const before = errorCounts(diagnostics);
      const kept: Fix[] = [];
      r = { text, applied: 0 };
      after = diagnostics;
      for (const fix of fixes) {
        const tried = applyFixes(text, [...kept, fix]);
        if (tried.applied !== kept.length + 1) continue;
        const found = analyze(tried.text);
        if (worse(found, before)) continue;
        kept.push(fix);
        r = tried;
        after = found;
      }
      if (kept.length === 0 || r.text === text) break;
    }
    text = r.text;
    diagnostics = after;
    changed = true;
  }
  return changed ? { text, diagnostics } : null;
}
