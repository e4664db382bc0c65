import { splitFrontmatter } from './frontmatter.js';
import type { FrontmatterSplit } from './frontmatter.js';
import { FILE_START } from '../model/position.js';
import type { Locator } from '../model/position.js';
import type { CompiledSchema, JsonSchema } from './schema-check.js';
import type { Lookup } from './schema-refs.js';
import { applyDefaults } from './schema-check.js';
import type { ErrorObject } from 'ajv';
import { parseYamlFrontmatter } from './yaml-frontmatter.js';
import type { YamlIssue } from './yaml-frontmatter.js';
import { readLeniently } from './lenient-yaml.js';
import type { LenientValue } from './lenient-yaml.js';

/** The frontmatter layer of a markdown document: the fences, what the YAML parser found, the data. */
export interface FrontmatterParse {
  split: FrontmatterSplit;
  issues: YamlIssue[];
  /** Frontmatter data with schema defaults applied; null when it could not be read at all. */
  data: Record<string, unknown> | null;
  /** Data as written (before defaults), for facts that must know what the file says. */
  written: Record<string, unknown> | null;
  locator: Locator;
  /** Values of lenient fields read as the client reads them (src/parse/lenient-yaml.ts); absent without lenient fields. */
  lenient?: LenientValue[];
}

/** The schema layer: what ajv found in some data, and how to find each value in the file. */
export interface SchemaCheck {
  errors: readonly ErrorObject[];
  data: unknown;
  locator: Locator;
  schema: JsonSchema;
  /** How the schema's `$ref`s find the documents they name. */
  lookup: Lookup;
  /** The file's text, for fixes that must see how a value is written (a plain or a quoted scalar). */
  text?: string;
}

const NO_LOCATOR: Locator = { value: () => FILE_START, key: () => FILE_START };

/** Validates data against a compiled schema; null when it passes. */
export function checkSchema(schema: CompiledSchema, data: unknown, locator: Locator, text?: string): SchemaCheck | null {
  if (schema.validate(data)) return null;
  return { errors: schema.validate.errors ?? [], data, locator, schema: schema.schema, lookup: schema.lookup, ...(text !== undefined ? { text } : {}) };
}

/**
 * Splits, parses and schema-checks the frontmatter of a markdown document (processes, SysRS, configured kinds).
 * `lenient`: fields whose plain one-line values are read as a client reads them.
 */
export function readFrontmatterDoc(
  text: string,
  schema: CompiledSchema,
  lenient: readonly string[] = [],
): { frontmatter: FrontmatterParse; schema: SchemaCheck | null } {
  const split = splitFrontmatter(text);
  if (split.unterminated) {
    return { frontmatter: { split, issues: [], data: null, written: null, locator: NO_LOCATOR }, schema: null };
  }
  let written: Record<string, unknown> | undefined = {};
  let locator = NO_LOCATOR;
  let issues: YamlIssue[] = [];
  let values: LenientValue[] | undefined;
  if (split.present) {
    const read = lenient.length > 0 ? readLeniently(split.yaml, lenient, split.yamlStartLine) : null;
    const yaml = parseYamlFrontmatter(read?.yaml ?? split.yaml, split.yamlStartLine);
    if (read !== null) values = read.values;
    issues = yaml.issues;
    written = yaml.data;
    locator = yaml.locator;
  }
  const more = values !== undefined ? { lenient: values } : {};
  if (written === undefined) return { frontmatter: { split, issues, data: null, written: null, locator, ...more }, schema: null };
  return {
    frontmatter: { split, issues, data: applyDefaults(written, schema.properties), written, locator, ...more },
    schema: checkSchema(schema, written, locator, text),
  };
}
