/**
 * The JSON Schema of `docgate.config.yaml` / `docgate.config.json`, made from the registry (the rule ids
 * and kinds it accepts are the registry's). `npm run docs` writes it to schemas/docgate.config.schema.json,
 * which editors and the MCP server's resources read; test/config.test.ts fails when that file is stale.
 */
import { BUILTIN_KINDS, rulesOf } from '../kinds/index.js';
import { CUSTOM_RULE_SUFFIXES, CUSTOM_SHARED_RULE_IDS } from '../kinds/custom/kind.js';
import { OUTLINE_RULE_TEMPLATES } from '../rules/outline/index.js';
import { presetNames } from './presets.js';

export const CONFIG_SCHEMA_ID = 'https://docgate.dev/schemas/docgate.config.schema.json';

/** A configured kind's name: lowercase words joined by `-` (it prefixes its rule ids). */
export const KIND_NAME = '^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$';
/** A rule file name in the root's rule folder. */
export const RULE_FILE_NAME = '^[A-Za-z0-9][A-Za-z0-9._-]*\\.json$';
/** A kind's `frontmatter`: a schema file name, or `none`. */
const FRONTMATTER_FILE = '^(?:none|[A-Za-z0-9][A-Za-z0-9._-]*\\.json)$';

/** Rule ids a configured kind brings (`adr-duplicate-id`, `adr-h1`, …): any kind name before them. */
export function kindRulePattern(suffixes: readonly string[]): string {
  return `^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:${suffixes.join('|')})$`;
}

/**
 * `builtinKinds`: the registry's kinds, and whether each has a file-name rule (then `fileName` may replace
 * it); `ruleIds`: every rule id of the registry; `kindRuleSuffixes`: the ids a configured kind brings;
 * `presets`: the names of the presets docgate ships.
 */
export function configSchema(
  builtinKinds: readonly { name: string; fileName: boolean }[],
  ruleIds: readonly string[],
  kindRuleSuffixes: readonly string[],
  presets: readonly string[] = [],
): Record<string, unknown> {
  const globs = (description: string) => ({ type: 'array', items: { type: 'string', minLength: 1 }, description });
  const severity = { enum: ['off', 'warn', 'error'], description: 'off, warn or error' };
  const rules = {
    type: 'object',
    description: 'rule ids mapped to off, warn or error',
    propertyNames: { anyOf: [{ enum: [...ruleIds] }, { pattern: kindRulePattern(kindRuleSuffixes) }] },
    additionalProperties: severity,
  };
  const kindRules = { ...rules, description: "rule ids mapped to off, warn or error, for this kind's documents only" };
  const include = globs('root-relative globs of the files of this kind (replace the default)');
  const builtin = (kind: { name: string; fileName: boolean }) => ({
    type: 'object',
    description: `where ${kind.name} documents live`,
    properties: kind.fileName
      ? {
          include,
          fileName: { type: 'string', minLength: 1, description: 'a regular expression for the file name without its extension' },
          rules: kindRules,
        }
      : { include, rules: kindRules },
    additionalProperties: false,
  });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: CONFIG_SCHEMA_ID,
    title: 'docgate configuration',
    $comment: "Generated from docgate's rule registry (npm run docs). Read from docgate.config.yaml or docgate.config.json at the lint root.",
    type: 'object',
    properties: {
      presets: {
        type: 'array',
        description: 'presets docgate ships, applied in order beneath this file: each a configuration in this same language (docs/formats.md, "Presets")',
        items: { enum: [...presets], description: 'the name of a preset docgate ships' },
      },
      // What editors validate the file against (docs/configuration.md); docgate reads nothing from it.
      $schema: {
        type: 'string',
        description:
          'the JSON Schema an editor validates this file against, e.g. `node_modules/docgate/schemas/docgate.config.schema.json`; docgate ignores it',
      },
      ignores: globs('root-relative globs of files that are never linted and never served'),
      kinds: {
        type: 'object',
        description: 'where each kind lives, and kinds of your own',
        properties: Object.fromEntries(builtinKinds.map((k) => [k.name, builtin(k)])),
        propertyNames: { pattern: KIND_NAME },
        additionalProperties: {
          type: 'object',
          description: 'a kind of your own: markdown with YAML frontmatter, or a body alone',
          properties: {
            include,
            id: {
              anyOf: [
                { enum: ['stem', 'folder', 'frontmatter'] },
                {
                  type: 'object',
                  properties: { field: { type: 'string', minLength: 1, description: 'a frontmatter key' } },
                  required: ['field'],
                  additionalProperties: false,
                },
              ],
              description:
                '`stem` (the file name without the suffix its include glob names, else without its extension), `folder` (the name of its folder), `frontmatter` (its `id` field) or `{field: NAME}` (that frontmatter field)',
            },
            frontmatter: {
              type: 'string',
              pattern: FRONTMATTER_FILE,
              description: 'a JSON Schema file in the rule folder, or `none` for a kind without frontmatter',
            },
            outline: { type: 'string', pattern: RULE_FILE_NAME, description: 'an outline file in the rule folder, in the format of sysrs-outline.json' },
            frontmatterOptional: { type: 'boolean', description: 'a file without a frontmatter block is fine (default false)' },
            dialects: {
              type: 'array',
              items: { type: 'string', pattern: RULE_FILE_NAME },
              description: 'JSON Schema files in the rule folder that widen the frontmatter schema: a key any of them defines is accepted',
            },
            match: {
              type: 'object',
              description: 'a frontmatter field that must equal the folder name or the file stem (after NFKC)',
              properties: {
                field: { type: 'string', minLength: 1, description: 'a frontmatter key' },
                equals: { enum: ['folder', 'stem'], description: '`folder` or `stem`' },
              },
              required: ['field', 'equals'],
              additionalProperties: false,
            },
            uniqueIgnoreCase: { type: 'boolean', description: 'ids also differ in more than case (default false)' },
            body: {
              type: 'object',
              description: 'what the body after the frontmatter must be',
              properties: {
                required: { type: 'boolean', description: 'a body with more than whitespace (default false)' },
                maxLines: { type: 'integer', minimum: 1, description: 'the most lines a body may have' },
                maxBytes: { type: 'integer', minimum: 1, description: 'the most bytes a body may have' },
              },
              additionalProperties: false,
            },
            lenient: {
              type: 'array',
              items: { type: 'string', minLength: 1 },
              description: 'frontmatter keys whose plain one-line value is read as the string a client reads where YAML refuses it',
            },
            deprecatedInclude: {
              type: 'object',
              description: 'globs of documents of this kind under a name it no longer wants',
              properties: {
                globs: { ...globs('root-relative globs of the deprecated files'), minItems: 1 },
                message: { type: 'string', minLength: 1, description: 'what to do instead; `<stem>` stands for the file stem' },
              },
              required: ['globs', 'message'],
              additionalProperties: false,
            },
            rules: kindRules,
          },
          required: ['include', 'frontmatter'],
          additionalProperties: false,
        },
      },
      schemas: { type: 'string', minLength: 1, description: "the root's rule-file folder, relative to the root (default `schemas`)" },
      rules,
      overrides: {
        type: 'array',
        description: 'rule settings for some files; later blocks win',
        items: {
          type: 'object',
          properties: { files: { ...globs('root-relative globs of the files this block applies to'), minItems: 1 }, rules },
          required: ['files', 'rules'],
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  };
}

/** The JSON Schema of the configuration file, made from the registry (its kinds and rule ids). */
export function registryConfigSchema(): Record<string, unknown> {
  const suffixes = [...CUSTOM_RULE_SUFFIXES, ...OUTLINE_RULE_TEMPLATES.map((t) => t.suffix)];
  return configSchema(
    BUILTIN_KINDS.map((k) => ({ name: k.name, fileName: k.fileName !== null })),
    [...new Set([...rulesOf().keys(), ...CUSTOM_SHARED_RULE_IDS])].sort(),
    suffixes,
    presetNames(),
  );
}
