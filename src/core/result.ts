import type { Analysis } from './analysis.js';
import type { Diagnostic, ParseFailureResult } from './types.js';

/** SPEC §3: at most this many diagnostics per file (the first ones by position). */
export const MAX_DIAGNOSTICS = 100;

function compare(a: Diagnostic, b: Diagnostic): number {
  return a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}

/** Keeps exactly the SPEC's fields, and keeps every message on one line (`error` joins lines with `\n`). */
function clean(d: Diagnostic): Diagnostic {
  const out: Diagnostic = { line: d.line, column: d.column, rule: d.rule, message: d.message.replace(/\r\n|\r|\n/g, ' ') };
  if (d.endLine !== undefined) out.endLine = d.endLine;
  if (d.endColumn !== undefined) out.endColumn = d.endColumn;
  return out;
}

/** One diagnostic as a line of `error`: `<line>:<column> <message> [<rule>]`. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.line}:${d.column} ${d.message} [${d.rule}]`;
}

/** The canonical `error` text — the only place it is produced (SPEC §3). */
export function renderError(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map(formatDiagnostic).join('\n');
}

/** Sorts, de-duplicates and caps a file's diagnostics. */
export function finalizeDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  const sorted = list.map(clean).sort(compare);
  const out: Diagnostic[] = [];
  for (const d of sorted) {
    const prev = out[out.length - 1];
    if (prev && compare(prev, d) === 0) continue;
    out.push(d);
    if (out.length === MAX_DIAGNOSTICS) break;
  }
  return out;
}

export function failureOf(base: { id: string; path: string; kind: Analysis['kind'] }, list: readonly Diagnostic[]): ParseFailureResult {
  const diagnostics = finalizeDiagnostics(list);
  return { id: base.id, path: base.path, kind: base.kind, error: renderError(diagnostics), diagnostics };
}

/** The file's result: null when it passes, else its ParseFailureResult (own and cross-file diagnostics). */
export function resultOf(a: Analysis, crossFile: readonly Diagnostic[] = []): ParseFailureResult | null {
  if (a.diagnostics.length === 0 && crossFile.length === 0) return null;
  return failureOf(a, [...a.diagnostics, ...crossFile]);
}
