import type { ErrorObject } from 'ajv';
import { diag, quote } from './position.js';
import type { Locator } from './position.js';
import type { Diagnostic } from './types.js';

/** A JSON Schema node, as far as messages need to read it. Any subschema may also be `true` or `false`. */
interface SchemaNode {
  description?: unknown;
  properties?: Record<string, SchemaNode | boolean>;
  [k: string]: unknown;
}

/** The node itself when it is an object (a boolean schema has no words to offer). */
function node(v: unknown): SchemaNode | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as SchemaNode) : undefined;
}

function segments(instancePath: string): string[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  switch (typeof v) {
    case 'object': return 'mapping';
    default: return typeof v;
  }
}

function wantedType(t: unknown): string {
  const list = (Array.isArray(t) ? t : [t]).filter((x) => x !== 'null').map((x) => (x === 'object' ? 'a mapping' : x === 'array' ? 'a list' : `a ${String(x)}`));
  return list.join(' or ');
}

function valueAt(data: unknown, path: readonly string[]): unknown {
  let v: unknown = data;
  for (const s of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[s];
  }
  return v;
}

/** The schema's own words for what a value should be, so that messages come from the data too. */
function expectation(schema: unknown, fallback: string): string {
  const description = node(schema)?.description;
  return typeof description === 'string' ? description : fallback;
}

/**
 * Turns ajv errors (allErrors) into positioned diagnostics. Rule ids name the kind of defect
 * (`missing-key`, `unknown-key`, `empty-value`, `invalid-value`, `wrong-type`, `schema`); the words
 * of the expectation come from the schema's `description` where it has one.
 */
export function schemaDiagnostics(errors: readonly ErrorObject[], data: unknown, locator: Locator): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const e of errors) {
    const path = segments(e.instancePath);
    const field = path.length > 0 ? `\`${path.join('.')}\`` : 'the document';
    const value = valueAt(data, path);
    const parent = node(e.parentSchema);
    const properties = node(parent?.properties);
    switch (e.keyword) {
      case 'required': {
        const key = (e.params as { missingProperty: string }).missingProperty;
        const sub = properties?.[key];
        out.push(diag(locator.value(path), 'missing-key', `Unexpected missing key \`${key}\`, expected ${expectation(sub, `a \`${key}\` entry`)}`));
        break;
      }
      case 'additionalProperties': {
        const key = (e.params as { additionalProperty: string }).additionalProperty;
        const allowed = Object.keys(properties ?? {}).map((k) => `\`${k}\``).join(', ');
        out.push(diag(locator.key([...path, key]), 'unknown-key', `Unexpected key ${quote(key)}, expected one of: ${allowed}`));
        break;
      }
      case 'type':
        out.push(diag(locator.value(path), 'wrong-type', `Unexpected ${typeName(value)} for ${field}, expected ${wantedType((e.params as { type: unknown }).type)}`));
        break;
      case 'minLength':
        if (typeof value === 'string' && value.trim() === '') {
          out.push(diag(locator.value(path), 'empty-value', `Unexpected empty ${field}, expected ${expectation(parent, 'a value')}`));
        } else {
          out.push(diag(locator.value(path), 'invalid-value', `Unexpected ${field} value ${quote(value)}, expected ${expectation(parent, `at least ${e.params.limit} characters`)}`));
        }
        break;
      case 'enum': {
        const allowed = ((e.params as { allowedValues: unknown[] }).allowedValues ?? [])
          .filter((v) => v !== null && v !== '')
          .map((v) => `\`${String(v)}\``)
          .join(', ');
        out.push(diag(locator.value(path), 'invalid-value', `Unexpected ${field} value ${quote(value)}, expected one of: ${allowed}`));
        break;
      }
      case 'const':
        out.push(diag(locator.value(path), 'invalid-value', `Unexpected ${field} value ${quote(value)}, expected \`${String((e.params as { allowedValue: unknown }).allowedValue)}\``));
        break;
      case 'false schema':
        // `"key": false`: the schema allows no value there.
        out.push(diag(locator.value(path), 'schema', `Unexpected ${path.length > 0 ? `${field} value` : 'content'} ${quote(value)}, expected no value (the schema is \`false\`)`));
        break;
      case 'pattern':
      case 'format':
        out.push(diag(locator.value(path), 'invalid-value', `Unexpected ${field} value ${quote(value)}, expected ${expectation(parent, e.message ?? 'a valid value')}`));
        break;
      default:
        out.push(diag(locator.value(path), 'schema', `Unexpected ${field} value ${quote(value)}, expected it to ${e.message ?? 'match the schema'}`));
    }
  }
  return out;
}
