/**
 * What the schema rules read from one ajv error: the value's path, the value, the schema that holds the
 * keyword, and the words of the expectation (the schema's `description`, so a team that tightens a
 * schema also writes what its users read).
 */
import type { ErrorObject } from 'ajv';
import type { SchemaCheck } from '../../core/frontmatter-doc.js';

/** A JSON Schema node, as far as messages read it; `true`/`false` are schemas too. */
export interface SchemaNode {
  description?: string;
  properties?: Record<string, SchemaNode | boolean>;
  [k: string]: unknown;
}

export interface ErrorView {
  error: ErrorObject;
  /** Data path segments (`/a/b` → ['a', 'b']). */
  path: string[];
  /** `` `a.b` `` or `the document`. */
  field: string;
  value: unknown;
  parent: SchemaNode | undefined;
}

function segments(instancePath: string): string[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(data: unknown, path: readonly string[]): unknown {
  let v: unknown = data;
  for (const s of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[s];
  }
  return v;
}

/** The errors of these keywords, each with what the messages need. */
export function errorsOf(check: SchemaCheck, keywords: ReadonlySet<string> | ((keyword: string) => boolean)): ErrorView[] {
  const wanted = typeof keywords === 'function' ? keywords : (k: string) => keywords.has(k);
  const out: ErrorView[] = [];
  for (const error of check.errors) {
    if (!wanted(error.keyword)) continue;
    const path = segments(error.instancePath);
    const parent = error.parentSchema;
    out.push({
      error,
      path,
      field: path.length > 0 ? `\`${path.join('.')}\`` : 'the document',
      value: valueAt(check.data, path),
      parent: typeof parent === 'object' && parent !== null ? (parent as SchemaNode) : undefined,
    });
  }
  return out;
}

/** A subschema as a node, or undefined for a boolean schema (`true` allows anything, `false` nothing). */
export function node(schema: SchemaNode | boolean | undefined): SchemaNode | undefined {
  return typeof schema === 'object' && schema !== null ? schema : undefined;
}

/** The schema's own words for what a value should be, else `fallback`. */
export function expectation(schema: SchemaNode | undefined, fallback: string): string {
  return typeof schema?.description === 'string' ? schema.description : fallback;
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'mapping' : typeof v;
}
