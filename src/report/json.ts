import { escapeCandidates, jsonEscape } from '../model/hidden-unicode.js';
import type { LintRun } from '../lint/run.js';

/**
 * The `json` format (docs/formats.md, "Reports"). Without a configuration file: `{ results, filesChecked, problemCount }`, as
 * docgate 1 printed it; with one: `{ results, warnings, filesChecked, problemCount, errorCount,
 * warningCount }` (`warnings`: the documents that pass with warnings only).
 */
export function json(run: LintRun): string {
  // `--fix-dry-run` (docs/formats.md, "Fixes"): `output`, the text after every fix, on each result the fixes would change.
  const outputs = run.outputs;
  const withOutput = <T extends { path: string }>(list: T[]): T[] =>
    outputs ? list.map((r) => (outputs.has(r.path) ? { ...r, output: outputs.get(r.path)! } : r)) : list;
  const results = withOutput(run.results);
  const warnings = withOutput(run.warnings);
  // Warnings can come without a configuration too (an unused inline directive): then the same keys.
  const report =
    run.configured || (run.warnings?.length ?? 0) > 0
      ? { results, warnings, filesChecked: run.filesChecked, problemCount: run.problemCount, errorCount: run.errorCount, warningCount: run.warningCount }
      : { results, filesChecked: run.filesChecked, problemCount: run.problemCount };
  // Hidden characters (of a path, of `output`) as JSON escapes: the values are the same, the text shows none.
  return `${escapeCandidates(JSON.stringify(report, null, 2), jsonEscape)}\n`;
}
