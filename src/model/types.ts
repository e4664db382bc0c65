/**
 * The name of a kind of document: one of the registry's (src/kinds/index.ts: `template`, `framework`,
 * `process`, `sysrs`) or one a configuration declares (docs/formats.md, "Kinds of your own"). Only src/kinds/ names them.
 */
export type Kind = string;

/** A replacement of the range [start, end) of the file on disk (1-based lines and columns, end exclusive as ESLint's range). */
export interface Fix {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  text: string;
}

/**
 * One finding. Positions are 1-based, in the file as it is on disk (frontmatter included);
 * columns count UTF-16 code units, like ESLint and SARIF's default `columnKind`.
 */
export interface Diagnostic {
  line: number;
  column: number;
  rule: string;
  message: string;
  endLine?: number;
  endColumn?: number;
  /**
   * `warning` for a rule the configuration sets to `warn` (docs/formats.md, "Severities and warnings"); absent for an error, the default, so
   * that the reports of a root without warnings are byte for byte those of a root without configuration.
   */
  severity?: 'warning';
  /** A meaning-preserving repair (docs/formats.md, "Fixes"): only on findings of a rule declared `fixable`. */
  fix?: Fix;
}

/** The one result every frontend hands out for a document that fails (docs/formats.md, "The result: `ParseFailureResult`"). */
export interface ParseFailureResult {
  id: string;
  path: string;
  kind: Kind;
  error: string;
  diagnostics: Diagnostic[];
}

/** Per-language heading table (`schemas/sysrs-headings.<lang>.json`): canonical English text → translation. */
export interface HeadingTable {
  language: string;
  h1Prefix: string;
  headings: Record<string, string>;
}
