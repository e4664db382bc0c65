import type { Directive } from '../parse/directives.js';
import type { Diagnostic, Kind } from './types.js';

/** A value with the position it was read from. */
export interface Located<T> {
  value: T;
  line: number;
  column: number;
}

import type { FrameworkDoc, FrameworkFacts } from '../kinds/framework/parse.js';
import type { ProcessDoc, ProcessFacts } from '../kinds/process/parse.js';
import type { SysrsDoc, SysrsFacts } from '../kinds/sysrs/parse.js';
import type { TemplateDoc, TemplateFacts } from '../kinds/template/parse.js';

export type { FrameworkDoc, ProcessDoc, SysrsDoc, TemplateDoc };

/** What a file contributes to the cross-file rules; small, so the index of a whole root stays cheap to keep. */
export type Facts = TemplateFacts | FrameworkFacts | ProcessFacts | SysrsFacts;

export type Doc = TemplateDoc | FrameworkDoc | ProcessDoc | SysrsDoc;

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
