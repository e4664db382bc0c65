import { escapeHidden } from '../model/hidden-unicode.js';
import type { LintRun } from '../lint/run.js';
import { formatDiagnostic } from '../model/result.js';
import type { Diagnostic } from '../model/types.js';
import { plural, reported, summaryLine } from './summary.js';

/** Workflow-command escaping of a command's data (the text after `::`). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow-command escaping of a property value (`file=…`, `title=…`): data escaping plus `:` and `,`. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * One `::error` (or `::warning`) workflow command; its message is the diagnostic's line of `error`, byte
 * for byte. A hidden character of the path is written `\u{202E}` (the log shows the line as it is).
 */
export function annotation(path: string, d: Diagnostic): string {
  const props = [`file=${escapeProperty(escapeHidden(path))}`, `line=${d.line}`, `col=${d.column}`];
  if (d.endLine !== undefined) props.push(`endLine=${d.endLine}`);
  if (d.endColumn !== undefined) props.push(`endColumn=${d.endColumn}`);
  props.push(`title=${escapeProperty(d.rule)}`);
  return `::${d.severity === 'warning' ? 'warning' : 'error'} ${props.join(',')}::${escapeData(formatDiagnostic(d))}`;
}

/**
 * The `github` format (docs/formats.md, "Reports"): one workflow command per diagnostic (GitHub turns each into an annotation on the
 * file and line), then the summary line. Paths are relative to the lint root, as everywhere.
 */
export function github(run: LintRun): string {
  const out: string[] = [];
  for (const r of reported(run)) {
    for (const d of r.diagnostics) out.push(annotation(r.path, d));
  }
  out.push(summaryLine(run));
  return `${out.join('\n')}\n`;
}

/** GitHub caps a step summary at 1 MiB; stop the table well before that. */
export const STEP_SUMMARY_MAX_ROWS = 1000;

/**
 * A Markdown table cell that renders as the exact text: one line, and every character that could start
 * markup backslash-escaped (`|` would split the row; backticks, `*`, `_`, `~`, `[`, `<`, `&`, `$` and `@`
 * would turn into code, emphasis, links, HTML, entities, math or mentions).
 */
export function markdownCell(s: string): string {
  return s.replace(/\r\n|\r|\n/g, ' ').replace(/[\\`*_~[\]<>&|$@]/g, '\\$&');
}

/**
 * The Markdown that the CLI appends to `$GITHUB_STEP_SUMMARY` (GitHub shows only a few annotations
 * per step; the job summary lists every failure): a heading, the summary line and a table of failures.
 */
export function githubStepSummary(run: LintRun): string {
  const out = ['## docgate', '', summaryLine(run), ''];
  const shown = reported(run);
  if (shown.length === 0) return `${out.join('\n')}\n`;
  out.push('| File | Line:Col | Rule | Message |', '| --- | --- | --- | --- |');
  let rows = 0;
  for (const r of shown) {
    for (const d of r.diagnostics) {
      if (rows === STEP_SUMMARY_MAX_ROWS) break;
      out.push(`| ${markdownCell(escapeHidden(r.path))} | ${d.line}:${d.column} | ${markdownCell(d.rule)} | ${markdownCell(d.message)} |`);
      rows++;
    }
  }
  if (run.problemCount > rows)
    out.push('', `… and ${plural(run.problemCount - rows, 'more problem', 'more problems')} (see the annotations or the SARIF report).`);
  out.push('');
  return `${out.join('\n')}\n`;
}
