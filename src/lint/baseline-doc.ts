import { analyzeFileIdentified } from './analyze.js';
import type { Analysis } from '../model/analysis.js';
import type { FileRef } from '../io/layout.js';
import type { Memo } from './memo.js';
import { hasError } from '../model/result.js';
import { served } from './row.js';
import type { ParseFailureResult } from '../model/types.js';
import { suppressIn } from '../project/baseline.js';
import type { Project } from '../project/project.js';
import type { SeverityOf } from '../engine/rule.js';

/**
 * A document of the MCP server under the baseline (docs/formats.md, "The baseline file"): its result with the suppressed errors
 * dropped, and the analysis to serve it from. A document whose only errors are suppressed is served as
 * content, but its analysis was made with those errors, so it holds no parsed document: it is analyzed
 * once more with the suppressed rules off (exactly "their errors dropped"), and the memo keeps that
 * analysis under the same file identity and project key (which holds the baseline), so it is made once
 * per change of the file or the baseline, not once per call.
 */
export function servedUnderBaseline(
  project: Project,
  ref: FileRef,
  analysis: Analysis,
  result: ParseFailureResult | null,
  memo: Memo | null,
): { result: ParseFailureResult | null; analysis: Analysis } {
  if (result === null) return { result, analysis };
  const { result: kept, suppressed } = suppressIn(project.suppressions.counts, result);
  if (served(analysis) || suppressed.length === 0 || (kept !== null && hasError(kept.diagnostics))) return { result: kept, analysis };
  const off = new Set(suppressed);
  const severity = project.severityFor(ref.path);
  const quiet: SeverityOf = (rule) => (off.has(rule) ? 'off' : severity(rule));
  // The same project but for this document's suppressed rules (Object.create keeps the rest, lazy hash included).
  const again = analyzeFileIdentified(
    ref,
    Object.create(project, { severityFor: { value: (path: string) => (path === ref.path ? quiet : project.severityFor(path)) } }) as Project,
    true,
  );
  // Gone since, or still without a document (an error past the 100 diagnostics kept before): it fails, as it was.
  if (again === null || again.analysis.doc === null) return { result, analysis };
  memo?.remember(ref, true, again);
  return { result: kept, analysis: again.analysis };
}
