/** What a lint run gives every frontend and report format. */
import type { FileRef } from '../io/layout.js';
import type { RuleEntry } from '../kinds/index.js';
import type { Diagnostic, ParseFailureResult } from '../model/types.js';
import type { Counts } from '../project/baseline.js';
import type { Split } from './parallel.js';
import type { Analysis } from '../model/analysis.js';

/** The `json` report (docs/formats.md, "Reports"): what every report format is made from. */
export interface LintReport {
  /** The documents that fail: an error (with their warnings too). */
  results: ParseFailureResult[];
  /** The documents that pass with warnings (the same shape). */
  warnings: ParseFailureResult[];
  filesChecked: number;
  /** Errors and warnings of `results` and `warnings`. */
  problemCount: number;
  errorCount: number;
  warningCount: number;
}

/** The report plus what was checked, for formats that list passing files too (JUnit). */
export interface LintRun extends LintReport {
  root: string;
  checked: Pick<FileRef, 'path' | 'kind'>[];
  /** Every rule of the project by id (kinds of the root's own included): what reports describe rules by. */
  rules?: ReadonlyMap<string, RuleEntry>;
  /** The project's kinds in registry order (JUnit suites). */
  kinds?: readonly string[];
  /** The errors of the documents checked per document and rule, before the baseline dropped any (for the baseline flags). */
  errorCounts?: Counts;
  /** `--fix-dry-run`: root-relative path → the text after every fix, for the documents the fixes would change (docs/formats.md, "Fixes"). */
  outputs?: ReadonlyMap<string, string>;
  /** `--fix-dry-run`: the text each of `outputs` was made from, as read (stylish prints the diff between them). */
  inputs?: ReadonlyMap<string, string>;
}

/** Where a run's time went (`DOCGATE_TIMING=1`, docs/performance.md): its phases, and who analyzed what. */
export interface Timing extends Split {
  /** Configuration, rules, listing, and the store's look-ups. */
  loadAndPlanMs: number;
  /** Reading and analyzing (in this thread and the workers). */
  analyzeMs: number;
  /** Rules across files, results, baseline, writing the store. */
  finishMs: number;
  /**
   * The results across files came from the store: for the named files alone (`few`: the rest of their
   * kinds not looked at), or for every document, each taken from the store (`all`).
   */
  kept?: 'few' | 'all';
}

export interface LintOutcome extends LintRun {
  /** With `documents` or `serve`: the selected documents with their results (before the baseline), in path order. */
  documents?: DocumentResult[];
  /** With `serve`: each selected document as a server serves it. */
  served?: ServedDocument[];
  /** With `across`: the results across files of every document of the kinds linted, by path (before directives; paths without any left out). */
  across?: ReadonlyMap<string, readonly Diagnostic[]>;
  /** Warnings of the run itself (a named path that selects nothing, a store that cannot be read or written). */
  notices: string[];
  timing: Timing;
}

/** A document a run reports: its analysis and its result (after directives, before the baseline); null when it passes. */
export interface DocumentResult {
  ref: FileRef;
  analysis: Analysis;
  result: ParseFailureResult | null;
}

/** A document as a server serves it: its result under the baseline, split into a failure or warnings. */
export interface ServedDocument {
  ref: FileRef;
  analysis: Analysis;
  /** Own and cross-file diagnostics when one is an error; null when the document passes (then `analysis.doc` or `analysis.row` is set). */
  failure: ParseFailureResult | null;
  /** The diagnostics of a document that passes with warnings only (it is served, with them). */
  warnings: ParseFailureResult | null;
}
