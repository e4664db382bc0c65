import type { LintReport } from '../lint/run.js';
import type { ParseFailureResult } from '../model/types.js';

/** The documents a report shows: those that fail and those with warnings only, by path. */
export function reported(report: Pick<LintReport, 'results'> & Partial<Pick<LintReport, 'warnings'>>): ParseFailureResult[] {
  const warnings = report.warnings ?? [];
  if (warnings.length === 0) return report.results;
  return [...report.results, ...warnings].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `1 file`, `2 files`, `0 files`: a count and its noun, singular for exactly one. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * `N problems in M files (K files checked)` (docs/decisions.md, "Summary line"); with warnings,
 * `N problems (E errors, W warnings) in M files (K files checked)`; each noun singular for one.
 */
export function summaryLine(report: LintReport): string {
  const files = report.results.length + (report.warnings?.length ?? 0);
  const counts = report.warningCount > 0 ? ` (${plural(report.errorCount, 'error', 'errors')}, ${plural(report.warningCount, 'warning', 'warnings')})` : '';
  return `${plural(report.problemCount, 'problem', 'problems')}${counts} in ${plural(files, 'file', 'files')} (${plural(report.filesChecked, 'file', 'files')} checked)`;
}

/** The summary line and, under it, how many problems each rule found, most first (`docgate init`). */
export function summaryByRule(report: LintReport): string {
  const counts = new Map<string, number>();
  for (const r of reported(report)) for (const d of r.diagnostics) counts.set(d.rule, (counts.get(d.rule) ?? 0) + 1);
  const rows = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([rule, n]) => `  ${String(n).padStart(6)} ${rule}`);
  return `${[summaryLine(report), ...rows].join('\n')}\n`;
}
