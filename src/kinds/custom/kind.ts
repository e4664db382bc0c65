/**
 * Kinds of your own (docs/formats.md, "Kinds of your own"), declared in the configuration:
 *
 *     kinds:
 *       adr:
 *         include: ["docs/adr/*.md"]
 *         id: stem                       # or `frontmatter` (the frontmatter `id` field)
 *         frontmatter: adr.schema.json   # a JSON Schema in the root's rule folder
 *         outline: adr-outline.json      # optional: a body outline in the format of sysrs-outline.json
 *
 * A configured kind is markdown with YAML frontmatter: it gets the file, frontmatter and schema rules,
 * the outline rules under its own prefix when it has an outline, and `<kind>-duplicate-id` across its
 * documents: everything a built-in kind gets.
 */
import type { Located } from '../../model/analysis.js';
import { readFrontmatterDoc } from '../../parse/frontmatter-doc.js';
import type { FrontmatterParse, SchemaCheck } from '../../parse/frontmatter-doc.js';
import { quote } from '../../model/position.js';
import { locatedOf, locatedRow } from '../../engine/facts-codec.js';
import { reportDuplicates } from '../../engine/groups.js';
import type { FileText, KindData, KindDef, Layers } from '../../engine/kind.js';
import { stem } from '../../model/paths.js';
import { defineCrossFileRule } from '../../engine/rule.js';
import type { CrossFileRule } from '../../engine/rule.js';
import { buildOutlineModel } from '../../parse/outline/build.js';
import { compileOutline } from '../../parse/outline/data.js';
import type { OutlineData } from '../../parse/outline/data.js';
import type { OutlineModel } from '../../parse/outline/model.js';
import { unusedDisableDirective } from '../../rules/directives/unused-disable-directive.js';
import { FILE_RULES } from '../../rules/file/index.js';
import { FRONTMATTER_RULES, duplicateKey } from '../../rules/frontmatter/index.js';
import { outlineRules } from '../../rules/outline/index.js';
import { SCHEMA_RULES } from '../../rules/schema/index.js';

export interface CustomKindConfig {
  include: readonly string[];
  id: 'stem' | 'frontmatter';
  /** Rule file names in the root's rule folder. */
  frontmatter: string;
  outline?: string;
}

export interface CustomParse extends Layers {
  frontmatter: FrontmatterParse;
  schema: SchemaCheck | null;
  outline: OutlineModel | null;
  /** The document's id: its file stem, or its frontmatter `id` (null when that is not a usable string). */
  id: Located<string> | null;
}

export interface CustomFacts {
  kind: string;
  id: Located<string> | null;
}

/** What MCP clients get of a document of a configured kind that parses. */
export interface CustomDoc {
  kind: string;
  id: string;
  frontmatter: Record<string, unknown>;
  /** The parsed body, when the kind has an outline. */
  body?: unknown;
  /** The whole H1 text, when the kind has an outline. */
  title?: string;
  /** The body without frontmatter. */
  content: string;
}

/**
 * Ids of documents that get tools can ask for: no path separators, no `..`, no control characters
 * (an id is shape-checked before any file is read: docs/mcp-tools.md).
 */
export const CUSTOM_ID = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._~:@+-]{0,199}$/;

function parseCustom(name: string, config: CustomKindConfig, file: FileText, data: KindData, full: boolean): CustomParse {
  const { frontmatter, schema } = readFrontmatterDoc(file.text, data.schema!);
  let id: Located<string> | null;
  if (config.id === 'stem') id = { value: stem(file.path), line: 1, column: 1 };
  else {
    const written = frontmatter.written?.id;
    id = typeof written === 'string' && CUSTOM_ID.test(written) ? { value: written, ...frontmatter.locator.value(['id']) } : null;
  }
  let outline: OutlineModel | null = null;
  if (full && data.outline !== null && !frontmatter.split.unterminated) {
    // The outline data was checked when the rule set was loaded; messages call it by the kind's name unless it has one.
    const compiled = compileOutline(data.outline as OutlineData, null);
    outline = buildOutlineModel(frontmatter.split.body, frontmatter.split.bodyLineOffset, compiled, name);
  }
  return { frontmatter, schema, outline, id };
}

function duplicateIdRule(name: string): CrossFileRule<CustomFacts> {
  return defineCrossFileRule<CustomFacts>({
    id: `${name}-duplicate-id`,
    description: `Ids of ${name} documents must be unique`,
    // Examples belong to the built-in kinds; a configured kind's documents are the team's own.
    examples: { ok: [], notOk: [] },
    checkAll(entries, report) {
      reportDuplicates(
        entries,
        (f) => f.id,
        (v) => v.value,
        (v) => `duplicate id ${quote(v.value)}`,
        (others) => `ids unique across ${name} documents (also in ${others})`,
        report,
      );
    },
  });
}

/** The rule-id suffixes a configured kind brings (the configuration schema accepts them under any kind name). */
export const CUSTOM_RULE_SUFFIXES = ['duplicate-id'] as const;

/** The registry entry of a configured kind. */
export function customKind(name: string, config: CustomKindConfig): KindDef<CustomParse, CustomFacts, CustomDoc> {
  const rules = [...FILE_RULES, unusedDisableDirective, ...FRONTMATTER_RULES, duplicateKey, ...SCHEMA_RULES, ...(config.outline ? outlineRules(name) : [])];
  return {
    name,
    label: `${name} document`,
    include: config.include,
    directives: 'markdown',
    variants: false,
    maxBytes: 2 * 1024 * 1024,
    ruleFiles: { schema: config.frontmatter, ...(config.outline ? { outline: config.outline } : {}) },
    fileName: null,
    fallbackId: stem,
    parse: (file, data, full) => parseCustom(name, config, file, data, full),
    rules,
    id: (p, file) => p.id?.value ?? stem(file.path),
    facts: (p) => ({ kind: name, id: p.id }),
    factsId: (f) => f.id?.value ?? null,
    emptyFacts: () => ({ kind: name, id: null }),
    doc: (p) => {
      if (p.frontmatter.data === null || p.id === null) return null;
      const doc: CustomDoc = {
        kind: name,
        id: p.id.value,
        frontmatter: p.frontmatter.data,
        content: p.frontmatter.split.body.replace(/^(?:[ \t]*\r?\n)+/, ''),
      };
      if (p.outline) {
        doc.title = p.outline.title ?? '';
        doc.body = p.outline.body;
      }
      return doc;
    },
    crossFile: [duplicateIdRule(name)],
    codec: {
      encode: (f) => locatedRow(f.id),
      decode: (row) => {
        const id = locatedOf(row);
        return id === undefined ? null : { kind: name, id };
      },
    },
  };
}
