import type { LintReport, LintRun } from '../core/lint.js';

/** SPEC §4.3 `json`: `{ results, filesChecked, problemCount }`. */
export function json(run: LintRun): string {
  const report: LintReport = { results: run.results, filesChecked: run.filesChecked, problemCount: run.problemCount };
  return `${JSON.stringify(report, null, 2)}\n`;
}
