/**
 * Kinds of your own (docs/formats.md, "Kinds of your own"), declared in the configuration:
 *
 *     kinds:
 *       adr:
 *         include: ["docs/adr/*.md"]
 *         id: stem                       # or `folder`, `frontmatter`, `{field: NAME}`
 *         frontmatter: adr.schema.json   # a JSON Schema in the root's rule folder, or `none`
 *         outline: adr-outline.json      # optional: a body outline in the format of sysrs-outline.json
 *
 * and the rest of the kind language (`match`, `body`, `dialects`, `lenient`, `deprecatedInclude`,
 * `rules`, …: src/kinds/custom/config.ts). A configured kind gets the file, frontmatter and schema rules,
 * the outline rules under its own prefix when it has an outline, its own rules under its prefix
 * (src/kinds/custom/rules/) and `<kind>-duplicate-id` across its documents: everything a built-in kind gets.
 */
import { compileGlobs } from '../../io/glob.js';
import { locatedOf, locatedRow } from '../../engine/facts-codec.js';
import type { KindDef } from '../../engine/kind.js';
import type { Rule } from '../../engine/rule.js';
import { stem } from '../../model/paths.js';
import { unusedDisableDirective } from '../../rules/directives/unused-disable-directive.js';
import { FILE_RULES } from '../../rules/file/index.js';
import { FRONTMATTER_RULES, duplicateKey } from '../../rules/frontmatter/index.js';
import { unquotedValue } from '../../rules/frontmatter/unquoted-value.js';
import { linkTarget } from '../../rules/links/link-target.js';
import { outlineRules } from '../../rules/outline/index.js';
import { SCHEMA_RULES } from '../../rules/schema/index.js';
import { customKindConfig } from './config.js';
import type { CustomKindConfig, WrittenKind } from './config.js';
import { folderName, globSuffix, stemmer } from './id.js';
import { parseCustom } from './parse.js';
import type { CustomParse, CustomReader } from './parse.js';
import { duplicateIdRule } from './rules/duplicate-id.js';
import type { CustomFacts } from './rules/duplicate-id.js';
import { KIND_RULE_TEMPLATES } from './rules/index.js';
import { EXAMPLE_KIND, kindRule } from './rules/template.js';

export type { CustomKindConfig, WrittenKind } from './config.js';
export type { CustomParse } from './parse.js';
export type { CustomFacts } from './rules/duplicate-id.js';
export { isCustomId } from './parse.js';

/** What MCP clients get of a document of a configured kind that parses. */
export interface CustomDoc {
  kind: string;
  /** Null for a document without a usable id (opened by its path). */
  id: string | null;
  frontmatter: Record<string, unknown>;
  /** The parsed body, when the kind has an outline. */
  body?: unknown;
  /** The whole H1 text, when the kind has an outline. */
  title?: string;
  /** The body without frontmatter. */
  content: string;
}

/** The rule-id suffixes a configured kind brings (the configuration schema accepts them under any kind name). */
export const CUSTOM_RULE_SUFFIXES = ['duplicate-id', ...KIND_RULE_TEMPLATES.map((t) => t.suffix)] as const;

/** Rules without a kind prefix that kinds of your own bring (the configuration accepts their ids everywhere). */
export const CUSTOM_SHARED_RULES = [unquotedValue, linkTarget] as const;
export const CUSTOM_SHARED_RULE_IDS: readonly string[] = CUSTOM_SHARED_RULES.map((r) => r.id);

/** A matcher compiled on first use: a kind is made before the configuration's globs are checked (a bad one is a configuration error then). */
function lazyGlobs(globs: readonly string[]): (path: string) => boolean {
  let match: ((path: string) => boolean) | undefined;
  return (path) => (match ??= compileGlobs(globs))(path);
}

/** How the kind reads paths: the stem its include globs give, whether a path is one of its deprecated ones. */
function readerOf(name: string, config: CustomKindConfig): CustomReader {
  const globs = [...config.include, ...(config.deprecatedInclude?.globs ?? [])];
  const stems = stemmer(
    globs.map((g) => {
      const suffix = globSuffix(g);
      return { suffix, match: suffix === null ? () => false : lazyGlobs([g]) };
    }),
  );
  const deprecated = config.deprecatedInclude ? lazyGlobs(config.deprecatedInclude.globs) : () => false;
  const included = lazyGlobs(config.include);
  // A file both globs match is where the kind wants it.
  return { name, config, stemOf: stems, isDeprecated: (path) => deprecated(path) && !included(path) };
}

/** The registry entry of a configured kind, from its `kinds.<name>` as written. */
export function customKind(name: string, written: WrittenKind): KindDef<CustomParse, CustomFacts, CustomDoc> {
  const config = customKindConfig(written);
  const reader = readerOf(name, config);
  const hasFrontmatter = config.frontmatter !== null;
  const rules: Rule<CustomParse>[] = [
    ...FILE_RULES,
    unusedDisableDirective,
    ...(hasFrontmatter ? [...FRONTMATTER_RULES, duplicateKey, unquotedValue, ...SCHEMA_RULES] : []),
    ...(config.outline ? outlineRules(name) : []),
    ...KIND_RULE_TEMPLATES.map((t) => kindRule(t, name)),
    linkTarget,
  ];
  // A document without its id (a missing or invalid field) is named by the path name its id is meant to
  // be or equal: a skill by its folder, not by the `SKILL` every skill file is called (docs/formats.md).
  const byFolder = config.id === 'folder' || config.match?.equals === 'folder';
  const fallbackId = byFolder ? (path: string) => folderName(path) ?? stem(path) : stem;
  return {
    name,
    label: `${name} document`,
    include: [...config.include, ...(config.deprecatedInclude?.globs ?? [])],
    directives: 'markdown',
    variants: false,
    maxBytes: 2 * 1024 * 1024,
    ruleFiles: {
      ...(config.frontmatter !== null ? { schema: config.frontmatter } : {}),
      ...(config.outline ? { outline: config.outline } : {}),
      ...(config.dialects.length > 0 ? { dialects: config.dialects } : {}),
    },
    fileName: null,
    fallbackId,
    parse: (file, data, full) => parseCustom(reader, file, data, full),
    rules,
    id: (p, file) => p.id?.value ?? fallbackId(file.path),
    facts: (p) => ({ kind: name, id: p.id }),
    factsId: (f) => f.id?.value ?? null,
    emptyFacts: () => ({ kind: name, id: null }),
    doc: (p) => {
      const data = p.frontmatter ? p.frontmatter.data : {};
      // A document without an id still is one: the MCP tools list it by its path and open it by path.
      if (data === null) return null;
      const doc: CustomDoc = {
        kind: name,
        id: p.id?.value ?? null,
        frontmatter: data,
        content: p.body.replace(/^(?:[ \t]*\r?\n)+/, ''),
      };
      if (p.outline) {
        doc.title = p.outline.title ?? '';
        doc.body = p.outline.body;
      }
      return doc;
    },
    crossFile: [duplicateIdRule(name, config.uniqueIgnoreCase)],
    codec: {
      encode: (f) => locatedRow(f.id),
      decode: (row) => {
        const id = locatedOf(row);
        return id === undefined ? null : { kind: name, id };
      },
    },
  };
}

/**
 * The rules kinds of your own bring, as docs/rules.md shows them: the prefixed ones as `<kind>-…` with
 * their examples for the kind `skill`, then the shared ones (test/kind-language.test.ts runs every example).
 */
export function kindLanguageRules(): { shownId: string; rule: Rule<CustomParse> }[] {
  return [
    ...KIND_RULE_TEMPLATES.map((t) => ({ shownId: `<kind>-${t.suffix}`, rule: kindRule(t, EXAMPLE_KIND) })),
    ...CUSTOM_SHARED_RULES.map((r) => ({ shownId: r.id, rule: r as Rule<CustomParse> })),
  ];
}
