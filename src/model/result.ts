import type { Analysis } from './analysis.js';
import { escapeHidden, mayHide } from './hidden-unicode.js';
import type { Diagnostic, ParseFailureResult } from './types.js';

/** At most this many diagnostics per file, the first ones by position (docs/formats.md, "The `error` text"). */
export const MAX_DIAGNOSTICS = 100;

function compare(a: Diagnostic, b: Diagnostic): number {
  return (
    a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

/** C0 controls but the line feed (replaced by a space before), DEL and C1 controls. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

/** A control character as visible text: `\t`, `\x1b`, `\u009b`. */
function escapeControl(c: string): string {
  if (c === '\t') return '\\t';
  const code = c.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Keeps exactly the result's fields, and keeps every message on one line (`error` joins lines with `\n`)
 * and free of control characters and hidden ones: content quoted in a message (a heading, a key) must
 * not move the cursor or clear the screen of whoever reads the report, nor reorder or hide what it shows
 * (a right-to-left override in a key is written `\u{202E}`). Idempotent.
 */
function clean(d: Diagnostic): Diagnostic {
  let message = d.message.replace(/\r\n|\r|\n/g, ' ');
  if (CONTROL.test(message)) message = message.replace(CONTROLS, escapeControl);
  if (mayHide(message)) message = escapeHidden(message);
  const out: Diagnostic = { line: d.line, column: d.column, rule: d.rule, message };
  if (d.endLine !== undefined) out.endLine = d.endLine;
  if (d.endColumn !== undefined) out.endColumn = d.endColumn;
  if (d.severity === 'warning') out.severity = 'warning';
  if (d.fix !== undefined) out.fix = d.fix;
  return out;
}

/** One diagnostic as a line of `error`: `<line>:<column> <message> [<rule>]`; a warning's: `<line>:<column> warning <message> [<rule>]`. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.line}:${d.column}${d.severity === 'warning' ? ' warning' : ''} ${d.message} [${d.rule}]`;
}

/** Whether a file's diagnostics hold an error (a document fails iff it has one: docs/formats.md, "Severities and warnings"). */
export function hasError(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity !== 'warning');
}

/** The canonical `error` text — the only place it is produced (docs/formats.md, "The `error` text"). */
export function renderError(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map(formatDiagnostic).join('\n');
}

/**
 * Collects diagnostics and keeps exactly those `finalizeDiagnostics` keeps of everything added — the
 * first `max` by position, cleaned, without repeats — while holding at most a few times `max` of them.
 * A file with 300,000 findings then never holds 300,000 messages, and `wants` tells a producer when a
 * finding's message need not be built at all.
 */
export class CappedDiagnostics {
  private items: Diagnostic[] = [];
  /** Position of the last kept diagnostic once `max` are certain: anything after it is dropped. */
  private lastLine = Infinity;
  private lastColumn = Infinity;

  constructor(private readonly max = MAX_DIAGNOSTICS) {}

  /** False when a diagnostic at this position can no longer be among the kept ones. */
  wants(line: number, column: number): boolean {
    return line < this.lastLine || (line === this.lastLine && column <= this.lastColumn);
  }

  add(d: Diagnostic): void {
    if (!this.wants(d.line, d.column)) return;
    this.items.push(clean(d));
    if (this.items.length >= 4 * this.max) this.trim();
  }

  private trim(): void {
    // Stable: among equal diagnostics the one added first stays, as in one sort of the whole list.
    const sorted = this.items.sort(compare);
    const out: Diagnostic[] = [];
    for (const d of sorted) {
      const prev = out[out.length - 1];
      if (prev && compare(prev, d) === 0) continue;
      out.push(d);
      if (out.length === this.max) {
        this.lastLine = d.line;
        this.lastColumn = d.column;
        break;
      }
    }
    this.items = out;
  }

  /** The kept diagnostics, sorted. */
  list(): Diagnostic[] {
    this.trim();
    return this.items;
  }
}

/** Sorts, de-duplicates and caps a file's diagnostics. */
export function finalizeDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  const kept = new CappedDiagnostics();
  for (const d of list) kept.add(d);
  return kept.list();
}

/**
 * Caps a file's own diagnostics as soon as it is analyzed, so that neither the lint cache nor the MCP
 * server's memory ever holds more than the result can show. The first MAX_DIAGNOSTICS of the own ones
 * together with any cross-file ones are the first MAX_DIAGNOSTICS of all of them: results are unchanged.
 */
export function capDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return list.length > MAX_DIAGNOSTICS ? finalizeDiagnostics(list) : list;
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
