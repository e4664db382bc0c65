/**
 * A compiled JSON Schema as the parsers and rules read it, and the defaults it gives a value. What
 * compiles it (ajv, the precompiled validators) is the project's (src/project/schemas.ts).
 */
import type { ValidateFunction } from 'ajv';
import { record } from '../model/records.js';
import type { Lookup, SchemaNode } from './schema-refs.js';

/** A JSON Schema as rules read it. Any subschema may be a boolean (`true`: anything, `false`: nothing). */
export interface JsonSchema {
  properties?: Record<string, { default?: unknown; [k: string]: unknown } | boolean>;
  [k: string]: unknown;
}

export interface CompiledSchema {
  file: string;
  schema: JsonSchema;
  /**
   * The properties a value gets, those of what the schema `$ref`s (a bundled schema it extends) first:
   * their defaults, their order, their descriptions. The schema's own `properties` when it has no `$ref`.
   */
  properties: Record<string, SchemaNode>;
  readonly validate: ValidateFunction;
  /** How its `$ref`s find the documents they name (its own `$id`, docgate's bundled schemas). */
  readonly lookup: Lookup;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A schema's properties that have a `default`, as [key, default] pairs, made once per schema (applyDefaults runs per document). */
const defaultsOf = new WeakMap<Record<string, SchemaNode>, readonly (readonly [string, unknown])[]>();

function defaultPairs(properties: Record<string, SchemaNode>): readonly (readonly [string, unknown])[] {
  let pairs = defaultsOf.get(properties);
  if (pairs === undefined) {
    const found: [string, unknown][] = [];
    // A boolean subschema (`"name": true`) has no default.
    for (const [key, sub] of Object.entries(properties)) if (isPlainObject(sub) && 'default' in sub) found.push([key, sub.default]);
    defaultsOf.set(properties, (pairs = found));
  }
  return pairs;
}

/** Replaces null or blank values by the schema's `default`, and fills absent keys that have one. */
export function applyDefaults(data: Record<string, unknown>, properties: Record<string, SchemaNode>): Record<string, unknown> {
  const out = Object.assign(record<unknown>(), data);
  for (const [key, value] of defaultPairs(properties)) {
    const v = out[key];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) out[key] = value;
  }
  return out;
}
