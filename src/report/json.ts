import { escapeCandidates, jsonEscape } from '../model/hidden-unicode.js';
import type { LintRun } from '../lint/run.js';
import type { Diagnostic, ParseFailureResult } from '../model/types.js';

/** A diagnostic of the json report: its `severity` always said, `error` too, where a warning's stands. */
function withSeverity(d: Diagnostic): Diagnostic | (Omit<Diagnostic, 'severity'> & { severity: 'error' | 'warning' }) {
  if (d.severity !== undefined) return d;
  const { fix, ...rest } = d;
  return fix === undefined ? { ...rest, severity: 'error' } : { ...rest, severity: 'error', fix };
}

/**
 * The `json` format (docs/formats.md, "Reports"): `{ results, warnings, filesChecked, problemCount,
 * errorCount, warningCount }`, one shape whether or not the root has a configuration, and every
 * diagnostic with its `severity` (`warnings`: the documents that pass with warnings only). A consumer's
 * parser then never depends on the repository it reads.
 */
export function json(run: LintRun): string {
  // `--fix-dry-run` (docs/formats.md, "Fixes"): `output`, the text after every fix, on each result the fixes would change.
  const outputs = run.outputs;
  const shaped = (list: readonly ParseFailureResult[]) =>
    list.map((r) => {
      const out = { ...r, diagnostics: r.diagnostics.map(withSeverity) };
      return outputs?.has(r.path) ? { ...out, output: outputs.get(r.path)! } : out;
    });
  const report = {
    results: shaped(run.results),
    warnings: shaped(run.warnings),
    filesChecked: run.filesChecked,
    problemCount: run.problemCount,
    errorCount: run.errorCount,
    warningCount: run.warningCount,
  };
  // Hidden characters (of a path, of `output`) as JSON escapes: the values are the same, the text shows none.
  return `${escapeCandidates(JSON.stringify(report, null, 2), jsonEscape)}\n`;
}
