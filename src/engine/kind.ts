/**
 * A kind of document is one registry entry: where its files live by default, how large they may be,
 * how its id is found, which rule files it reads, how it is parsed, its rules, its facts for rules
 * across files (and how the lint cache keeps them), and its MCP tools. The engine knows kinds only
 * through this interface; src/kinds/index.ts is the only list of them.
 */
import type { FrontmatterParse, SchemaCheck } from '../parse/frontmatter-doc.js';
import type { CompiledSchema } from '../parse/schema-check.js';
import type { HeadingTable } from '../model/types.js';
import type { FieldsParse } from '../parse/fields.js';
import type { OutlineModel } from '../parse/outline/model.js';
import type { DirectiveSyntax } from '../parse/directives.js';
import type { FileNameRule } from '../parse/file-stage.js';
import type { CrossFileRule, Rule } from './rule.js';

/** The shared layers a kind's parse may carry; rules visit the ones present (see Rule). */
export interface Layers {
  frontmatter?: FrontmatterParse;
  fields?: FieldsParse;
  /** Null when the data passed its schema (or could not be read at all). */
  schema?: SchemaCheck | null;
  outline?: OutlineModel | null;
}

/** One document's decoded text and where it sits. */
export interface FileText {
  /** Root-relative, `/` separators. */
  path: string;
  /** Language folder of a variant (`docs/sysrs/<lang>/x.md`), else null. */
  lang: string | null;
  text: string;
  /** Size in bytes on disk. */
  size: number;
}

/** The rule data a kind was given for one root: its compiled schema, outline and heading tables. */
export interface KindData {
  schema: CompiledSchema | null;
  /** The body outline as read from its rule file (validated when the rule set was loaded). */
  outline: unknown;
  /** Heading tables by language (variants); empty when the kind has none. */
  headingTables: ReadonlyMap<string, HeadingTable>;
  /** File-name rule (configuration may replace the kind's default), or null for none. */
  fileName: FileNameRule | null;
  /** The root's absolute path, for rules that look at files besides the document (`link-target`); absent outside a root. */
  root?: string;
}

/** Where a kind's rule files are found (names in the root's rule folder, else docgate's own `schemas/`). */
export interface KindRuleFiles {
  schema?: string;
  outline?: string;
  /** Heading tables of language variants: file names matching this, `<lang>` captured first. */
  headingTables?: RegExp;
  /** Schemas that widen `schema` (a kind's `dialects`): a key any of them defines is accepted. */
  dialects?: readonly string[];
}

/** How facts travel through the lint cache: a compact row, and back (null when the row is not valid). */
export interface FactsCodec<F> {
  encode(facts: F): unknown;
  decode(row: unknown, path: string): F | null;
}

export interface KindDef<P extends Layers, F, D> {
  /** Lowercase name: `template`, `sysrs`, or a configured kind such as `adr`. */
  name: string;
  /** What a reader calls one document ("POWER template"); used in messages and listings. */
  label: string;
  /** Default include globs, relative to the root. */
  include: readonly string[];
  /** Language variants live in `<folder>/<lang>/<file>` beside each included folder. */
  variants: boolean;
  /** Largest file read, in bytes (larger ones are refused unread). */
  maxBytes: number;
  ruleFiles: KindRuleFiles;
  /** How its files carry inline directives (markdown and YAML comments, POWER `#` lines). */
  directives: DirectiveSyntax;
  /** The default file-name rule (a pattern for the name without its extension, and words for it), or null. */
  fileName: { pattern: string; expected: string } | null;
  /** The id of a document known only by its path (an unreadable file). */
  fallbackId(path: string): string;
  /**
   * Parses one document. `full: false` when only its facts are needed (a file not selected for lint
   * whose facts feed rules across files): the kind may skip what only its rules read.
   */
  parse(file: FileText, data: KindData, full: boolean): P;
  /** The rules that read the parse. */
  rules: readonly Rule<P>[];
  id(parsed: P, file: FileText): string;
  facts(parsed: P, file: FileText): F;
  /** The id its facts give a document (a SysRS's frontmatter id), when they give one; else its fallback id. */
  factsId?(facts: F): string | null;
  /** The facts of a document that could not be parsed at all. */
  emptyFacts(path: string, lang: string | null): F;
  /** The parsed document handed to MCP clients, for a document without errors. */
  doc(parsed: P, file: FileText): D | null;
  /**
   * What the kind's MCP list tools show of a document that parses, besides its title (list_documents):
   * a few short values the MCP server keeps instead of the parsed document (memory flat in the number of documents: docs/performance.md, "Scale (issue 17)").
   */
  row?(doc: D): Record<string, string | number>;
  /** Rules across the documents of this kind. */
  crossFile: readonly CrossFileRule<F>[];
  codec: FactsCodec<F>;
}

/**
 * Any kind, whatever its parse, facts and document types. (`any` because a registry holds kinds of
 * different types and TypeScript has no existential types; each kind is checked where it is defined.)
 */
// biome-ignore lint/suspicious/noExplicitAny: a kind's parse, facts and document types vary per kind; this is any kind's entry
export type AnyKind = KindDef<any, any, any>;
