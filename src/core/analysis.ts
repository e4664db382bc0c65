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
  /** The parsed document; present only when the file has no diagnostics of its own. */
  doc: Doc | null;
}

/** Input to a kind's analyzer: the decoded text of one file and where it sits. */
export interface FileText {
  path: string;
  lang: string | null;
  text: string;
  size: number;
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function stem(path: string): string {
  const b = baseName(path);
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(0, dot) : b;
}

/** The id of a document known only by its path: what a kind's analyzer falls back to (SPEC §1). */
export function fileId(kind: Kind, path: string): string {
  if (kind === 'framework') return baseName(path);
  if (kind === 'sysrs') return /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/.exec(baseName(path))?.[0].toLowerCase() ?? stem(path);
  return stem(path);
}
