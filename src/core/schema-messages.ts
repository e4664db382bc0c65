import type { ErrorObject } from 'ajv';
import { diag, quote } from './position.js';
import type { Locator } from './position.js';
import type { Diagnostic } from './types.js';

/** A JSON Schema node, as far as messages need to read it. */
interface SchemaNode {
  description?: string;
  properties?: Record<string, SchemaNode>;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  [k: string]: unknown;
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
function expectation(schema: SchemaNode | undefined, fallback: string): string {
  return schema?.description ?? fallback;
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
    const parent = e.parentSchema as SchemaNode | undefined;
    switch (e.keyword) {
      case 'required': {
        const key = (e.params as { missingProperty: string }).missingProperty;
        const sub = parent?.properties?.[key];
        out.push(diag(locator.value(path), 'missing-key', `Unexpected missing key \`${key}\`, expected ${expectation(sub, `a \`${key}\` entry`)}`));
        break;
      }
      case 'additionalProperties': {
        const key = (e.params as { additionalProperty: string }).additionalProperty;
        const allowed = Object.keys(parent?.properties ?? {}).map((k) => `\`${k}\``).join(', ');
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
