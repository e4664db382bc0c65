import type { LintReport } from './run.js';
import { failureOf, hasError } from '../model/result.js';
import type { ParseFailureResult } from '../model/types.js';

/** The part of a report made from the results of the documents checked. */
export type Tally = Omit<LintReport, 'filesChecked'>;

/**
 * The results of the documents checked (each with at least one diagnostic), sorted into documents that
 * fail (an error) and documents that pass with warnings, with their counts (docs/formats.md, "Severities and warnings").
 */
export function tally(all: readonly ParseFailureResult[]): Tally {
  const results: ParseFailureResult[] = [];
  const warnings: ParseFailureResult[] = [];
  let errorCount = 0;
  let warningCount = 0;
  for (const r of all) {
    const w = r.diagnostics.filter((d) => d.severity === 'warning').length;
    warningCount += w;
    errorCount += r.diagnostics.length - w;
    (hasError(r.diagnostics) ? results : warnings).push(r);
  }
  return { results, warnings, problemCount: errorCount + warningCount, errorCount, warningCount };
}

/** A report with its documents' results replaced (a baseline written since, `--quiet`), counted again. */
export function retally<T extends LintReport>(report: T, all: readonly ParseFailureResult[]): T {
  return { ...report, ...tally(all) };
}

/** The results of a report, failing and warning documents in path order. */
export function allResults(report: Pick<LintReport, 'results' | 'warnings'>): ParseFailureResult[] {
  return [...report.results, ...report.warnings].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `--quiet` (ESLint's): warnings are neither printed nor counted; a document with warnings only is not reported. */
export function withoutWarnings<T extends LintReport>(report: T): T {
  const errorsOnly: ParseFailureResult[] = [];
  for (const r of report.results) {
    const errors = r.diagnostics.filter((d) => d.severity !== 'warning');
    errorsOnly.push(errors.length === r.diagnostics.length ? r : failureOf(r, errors));
  }
  return retally(report, errorsOnly);
}
