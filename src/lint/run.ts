/** What a lint run gives every frontend and report format. */
import type { FileRef } from '../io/layout.js';
import type { RuleEntry } from '../kinds/index.js';
import type { ParseFailureResult } from '../model/types.js';
import type { Counts } from '../project/baseline.js';

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
  /** A configuration file is in effect (the json report then carries warnings and counts: docs/formats.md, "Reports"). */
  configured?: boolean;
  /** The errors of the documents checked per document and rule, before the baseline dropped any (for the baseline flags). */
  errorCounts?: Counts;
  /** `--fix-dry-run`: root-relative path → the text after every fix, for the documents the fixes would change (docs/formats.md, "Fixes"). */
  outputs?: ReadonlyMap<string, string>;
}
