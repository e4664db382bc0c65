import type { LintReport } from '../lint/run.js';
import type { ParseFailureResult } from '../model/types.js';

/** The documents a report shows: those that fail and those with warnings only, by path. */
export function reported(report: Pick<LintReport, 'results'> & Partial<Pick<LintReport, 'warnings'>>): ParseFailureResult[] {
  const warnings = report.warnings ?? [];
  if (warnings.length === 0) return report.results;
  return [...report.results, ...warnings].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * `N problems in M files (K files checked)` (docs/decisions.md, "Summary line"); with warnings,
 * `N problems (E errors, W warnings) in M files (K files checked)`.
 */
export function summaryLine(report: LintReport): string {
  const files = report.results.length + (report.warnings?.length ?? 0);
  const counts = report.warningCount > 0 ? ` (${report.errorCount} errors, ${report.warningCount} warnings)` : '';
  return `${report.problemCount} problems${counts} in ${files} files (${report.filesChecked} files checked)`;
}
