import type { LintReport } from '../core/lint.js';

/** SPEC §4.1: `N problems in M files (K files checked)`. */
export function summaryLine(report: LintReport): string {
  return `${report.problemCount} problems in ${report.results.length} files (${report.filesChecked} files checked)`;
}
