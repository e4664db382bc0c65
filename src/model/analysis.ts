import type { Pos } from './position.js';
import type { Diagnostic, Kind } from './types.js';

/** A value with the position it was read from. */
export interface Located<T> {
  value: T;
  line: number;
  column: number;
}

/** An inline directive of a document (`docgate-disable-next-line rule`), as src/parse/directives.ts finds it. */
export interface Directive {
  /** Where the directive is written (what `unused-disable-directive` points at). */
  at: Pos;
  /** The directive as written, without comment markers and reason (`docgate-disable-next-line unknown-key`). */
  text: string;
  /** The rules it names; null for every rule. */
  rules: string[] | null;
  /** The lines it covers, inclusive (`to` Infinity: to the end of the file). */
  from: number;
  to: number;
}

/**
 * What a file contributes to the cross-file rules: each kind's own shape (a kind's rules read it as
 * theirs, `KindDef`'s `F`), tagged with the kind. Small, so the index of a whole root stays cheap to keep.
 */
export interface Facts {
  readonly kind: string;
}

/** A parsed document: each kind's own shape (`KindDef`'s `D`), tagged with the kind. */
export interface Doc {
  readonly kind: string;
}

/** Everything the core learns from one file on its own (before cross-file rules). */
export interface Analysis {
  path: string;
  kind: Kind;
  id: string;
  diagnostics: Diagnostic[];
  facts: Facts;
  /**
   * The file's inline directives and which of them suppressed one of its own diagnostics (only when it
   * has any): the rules across files and the unused-directive check read them after analysis.
   */
  directives?: { list: Directive[]; used: boolean[] };
  /** The parsed document; present only when the file has no diagnostics of its own. */
  doc: Doc | null;
  /**
   * What the MCP list tools show of the parsed document, kept by the MCP server instead of `doc` (set
   * exactly when `doc` was, which is then dropped: src/lint/row.ts).
   */
  row?: DocRow;
}

/** A document's row: its title (list_documents) and the values its kind's list tools show (`KindDef.row`). */
export type DocRow = { title: string } & Record<string, string | number>;

/** Input to a kind's analyzer: the decoded text of one file and where it sits. */
export interface FileText {
  path: string;
  lang: string | null;
  text: string;
  size: number;
}

export { baseName, stem } from './paths.js';
