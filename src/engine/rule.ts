/**
 * A rule is one unit (ESLint's rule object, markdownlint's rule module, remark-lint's documented
 * examples): its id, a one-line description, default severity, whether it can be fixed, examples that
 * double as tests and as documentation, and its check. Checks never build messages by hand: they
 * report what they found and what they expected, and the engine writes "Unexpected X, expected Y".
 * docs/rules.md, SARIF, the configuration's rule ids and MCP rule resources are all read from rules.
 */
import type { FrontmatterParse, SchemaCheck } from '../parse/frontmatter-doc.js';
import type { Pos } from '../model/position.js';
import type { Fix } from '../model/types.js';
import type { FieldsParse } from '../parse/fields.js';
import type { OutlineModel } from '../parse/outline/model.js';
import type { FileStage } from '../parse/file-stage.js';

/** What a rule is for one document: `off` (not checked), `warning` or `error`. */
export type SeverityOf = (rule: string) => 'off' | 'warning' | 'error';

export type Severity = 'error' | 'warning';

export type { Fix } from '../model/types.js';

/**
 * A file of an example: text, or the special entries some file rules are about. `unmerged` is a state
 * of the git index, not of the disk: the example is a git repository with that path in conflict, and
 * is linted with `--staged`.
 */
export type ExampleFile = string | { bytes: readonly number[] } | { entry: 'directory' | 'fifo' | 'broken-link' | 'symlink-outside' | 'unmerged' };

export interface Example {
  /** Root-relative path of the file checked (its kind follows from the path). */
  path: string;
  /** Its content. */
  text: ExampleFile;
  /** Other files of the example's root, for rules that look across files. */
  others?: Readonly<Record<string, string>>;
  /** Short stand-in for `text` in the rules documentation, when the text is long or not text. */
  shown?: string;
}

export interface NotOkExample extends Example {
  /** Every diagnostic of this rule in `path`, as `line:column message`, in position order. */
  expected: readonly string[];
  /** For a fixable rule: the text of `path` after `lint --fix` (every fix of every rule applied). */
  output?: string;
}

export interface RuleMeta {
  id: string;
  /** One line: what the rule wants. */
  description: string;
  /** Default severity (configuration may change it). */
  severity: Severity;
  /** Its diagnostics can carry a meaning-preserving `fix`. */
  fixable: boolean;
  /**
   * About the file as a whole (encoding, size, read): configurable, but never disabled by an inline
   * directive, since the directive itself could not be read.
   */
  fileLevel: boolean;
  /** Off unless a configuration gives it a severity (then `severity` is only what the documentation shows it turned on as). */
  offByDefault?: boolean;
  /**
   * Its findings depend on files other than the document (whether a linked file exists): a document it
   * is on for is analyzed again on every run, never taken from a store (docs/performance.md).
   */
  looksOutside?: boolean;
  examples: { ok: readonly Example[]; notOk: readonly NotOkExample[] };
}

/**
 * How a check reports: `Unexpected <found>, expected <expected>` at `at`. `expected` is null only where
 * nothing better than the finding can be said (a YAML syntax error in the parser's own words).
 */
export interface Report {
  (at: Pos, found: string, expected: string | null, more?: { end?: Pos; fix?: Fix }): void;
  /**
   * False when a finding at `at` can no longer be among the file's kept diagnostics (the first 100 by
   * position): a rule that may find hundreds of thousands of things asks before building a message.
   */
  wants(at: Pos): boolean;
}

/**
 * A rule over one file. A file is read in layers, and a rule looks at the layers it is about, like an
 * ESLint rule subscribes to node types: `file` (how it was read and decoded, every kind),
 * `frontmatter` (YAML), `fields` (the POWER line format), `schema` (what the JSON Schema found),
 * `outline` (a markdown body against an outline) and `document` (the kind's own parse, `P`). A layer a
 * file does not have (a template has no frontmatter; a file that cannot be decoded has only `file`) is
 * never visited.
 */
export interface Rule<P = never> extends RuleMeta {
  file?(stage: FileStage, report: Report): void;
  frontmatter?(fm: FrontmatterParse, report: Report): void;
  fields?(fields: FieldsParse, report: Report): void;
  schema?(check: SchemaCheck, report: Report): void;
  outline?(model: OutlineModel, report: Report): void;
  document?(parsed: P, report: Report): void;
}

/** A document's cross-file facts with where they came from. */
export interface FactsEntry<F> {
  path: string;
  id: string;
  facts: F;
}

/** How a cross-file check reports: on the document at `path`. */
export type ReportAt = (path: string, at: Pos, found: string, expected: string | null) => void;

/** A rule over the facts of every document of a kind. */
export interface CrossFileRule<F> extends RuleMeta {
  checkAll(entries: readonly FactsEntry<F>[], report: ReportAt): void;
}

/** The one message grammar of docgate. */
export function unexpected(found: string, expected: string | null): string {
  return expected === null ? `Unexpected ${found}` : `Unexpected ${found}, expected ${expected}`;
}

type RuleSpec<R extends RuleMeta> = Omit<R, 'severity' | 'fixable' | 'fileLevel'> & Partial<Pick<R, 'severity' | 'fixable' | 'fileLevel'>>;

/** A rule with the defaults filled in: severity `error`, not fixable, not file-level. */
export function defineRule<P = never>(spec: RuleSpec<Rule<P>>): Rule<P> {
  return { severity: 'error', fixable: false, fileLevel: false, ...spec };
}

export function defineCrossFileRule<F>(spec: RuleSpec<CrossFileRule<F>>): CrossFileRule<F> {
  return { severity: 'error', fixable: false, fileLevel: false, ...spec };
}
