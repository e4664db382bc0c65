/**
 * The results of a run's selected documents: each document's own diagnostics and those of the rules
 * across files, less what its inline directives suppress (and a finding for each directive that
 * suppresses nothing), then the baseline, as ESLint applies them. A server that serves documents gets,
 * for one whose only errors the baseline suppresses, the analysis to serve it from.
 */
import type { FileRef } from '../io/layout.js';
import type { Analysis } from '../model/analysis.js';
import { hasError, resultOf } from '../model/result.js';
import type { Diagnostic, ParseFailureResult } from '../model/types.js';
import { applySuppressions, suppressIn } from '../project/baseline.js';
import type { Project } from '../project/project.js';
import { withSeverities } from '../project/project.js';
import type { SeverityOf } from '../engine/rule.js';
import { afterDirectives } from '../rules/directives/unused-disable-directive.js';
import type { Store } from '../store/store.js';
import { analyzeRead, maxBytes } from './analyze.js';
import { rowInsteadOfDoc, served } from './row.js';
import type { DocumentResult, LintRun, ServedDocument } from './run.js';

export type { DocumentResult, ServedDocument };
import type { Source } from './source.js';
import { tally } from './tally.js';

/** A document's result (null when it passes), its diagnostics across files being `cross`'s. */
export function resultOfDocument(project: Project, analysis: Analysis, cross: ReadonlyMap<string, readonly Diagnostic[]>): ParseFailureResult | null {
  return resultOf(analysis, afterDirectives(analysis, cross.get(analysis.path), project.severityFor));
}

/** The result of each document, its diagnostics across files being `cross`'s. */
export function documentResults(
  project: Project,
  docs: readonly { ref: FileRef; analysis: Analysis }[],
  cross: ReadonlyMap<string, readonly Diagnostic[]>,
): DocumentResult[] {
  return docs.map(({ ref, analysis }) => ({ ref, analysis, result: resultOfDocument(project, analysis, cross) }));
}

/** A run of the documents checked, `found` their results: under the baseline, what every report format is made from. */
export function runOf(project: Project, checked: readonly { ref: FileRef }[], found: readonly ParseFailureResult[]): LintRun {
  const { results, found: errorCounts } = applySuppressions(project.suppressions, found);
  return {
    root: project.root,
    ...tally(results),
    filesChecked: checked.length,
    checked: checked.map((d) => ({ path: d.ref.path, kind: d.ref.kind })),
    rules: project.rules,
    kinds: project.kinds.map((k) => k.name),
    errorCounts,
  };
}

/** The results among some documents' (those that do not pass). */
export function foundOf(docs: readonly DocumentResult[]): ParseFailureResult[] {
  const found: ParseFailureResult[] = [];
  for (const d of docs) if (d.result) found.push(d.result);
  return found;
}

/**
 * A document under the baseline as a server serves it. One whose only errors are suppressed is served
 * as content, but its analysis was made with those errors, so it holds no parsed document: it is
 * analyzed once more with the suppressed rules off (exactly "their errors dropped"), and the store keeps
 * that analysis under the same version and project (whose key holds the baseline), so it is made once
 * per change of the file or the baseline, not once per call.
 */
export function serve(project: Project, source: Source, store: Store, d: DocumentResult): ServedDocument {
  let { analysis } = d;
  let result = d.result;
  if (result !== null) {
    const { result: kept, suppressed } = suppressIn(project.suppressions.counts, result);
    result = kept;
    if (!served(analysis) && suppressed.length > 0 && (kept === null || !hasError(kept.diagnostics))) {
      const again = servedWithout(project, source, d.ref, new Set(suppressed));
      if (again !== null) {
        store.keep(d.ref, again.kept);
        analysis = again.kept.analysis;
      } else result = d.result; // gone since, or still without a document: it fails, as it was
    }
  }
  const failing = result !== null && hasError(result.diagnostics);
  return { ref: d.ref, analysis, failure: failing ? result : null, warnings: failing ? null : result };
}

/** The document analyzed again with some rules off, kept as its row; null when it is gone or still has no document. */
function servedWithout(project: Project, source: Source, ref: FileRef, off: ReadonlySet<string>): { kept: Parameters<Store['keep']>[1] } | null {
  const severity = project.severityFor(ref.path);
  const quiet: SeverityOf = (rule) => (off.has(rule) ? 'off' : severity(rule));
  const outcome = source.read(ref, maxBytes(project, ref.kind));
  const again = analyzeRead(
    ref,
    outcome,
    withSeverities(project, (path) => (path === ref.path ? quiet : project.severityFor(path))),
    { hashing: false },
  );
  if (again === null || again.analysis.doc === null) return null;
  rowInsteadOfDoc(again.analysis, project);
  return { kept: { analysis: again.analysis, version: again.identity, hash: again.hash, full: true, racy: !source.settled(again.identity) } };
}
