/**
 * What the schema rules read from one ajv error: the value's path, the value, the schema that holds the
 * keyword, and the words of the expectation (the constraint, then the schema's `description`, so a
 * team that tightens a schema also writes what its users read).
 *
 * ajv reports a failed `anyOf`, `oneOf` or `contains` after the errors of each branch or item it tried,
 * and a failed `if` after the errors of its `then` or `else`. The branches' errors are dropped here (the
 * rules report one message per value, built from the branches), and the errors of `then`/`else` say
 * when they apply; a `propertyNames` error is reported through the errors about the key it holds.
 */
import type { ErrorObject } from 'ajv';
import type { SchemaCheck } from '../../parse/frontmatter-doc.js';
import { quote } from '../../model/position.js';
import type { Pos } from '../../model/position.js';
import type { Fix, Report } from '../../engine/rule.js';
import { propertiesOf, resolveRef } from '../../parse/schema-refs.js';
import type { Lookup, SchemaNode as RefNode } from '../../parse/schema-refs.js';
import { constWords, described } from './words.js';

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
  /** The subschema whose `description` says what the value is for (see `aboutOf`). */
  about: SchemaNode | undefined;
  /** When the error applies, for the errors of `then`/`else` (` when `status` is `done``), else ''. */
  when: string;
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

/** How messages follow a `$ref` of the checked schema: its own `$id` is itself, other `$id`s are docgate's. */
export function lookupOf(check: SchemaCheck): Lookup {
  return check.lookup;
}

/** Where a `$ref` in the checked schema lands, for describing it. */
export function followOf(check: SchemaCheck): (ref: string) => unknown {
  const lookup = lookupOf(check);
  return (ref) => resolveRef(ref, check.schema, lookup)?.node;
}

/** Keywords whose errors come after the errors of the subschemas they tried. */
const GROUPS = new Set(['anyOf', 'oneOf', 'contains', 'if']);

/**
 * Every `$ref` string in a schema and in what they lead to (where the errors of a reference say they
 * come from: an inlined one by its `$ref`, another by its target's own path).
 */
function refsIn(schema: unknown, follow: (ref: string) => unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) refsIn(s, follow, into);
  else if (typeof schema === 'object' && schema !== null) {
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string') {
        if (into.has(v)) continue;
        into.add(v);
        refsIn(follow(v), follow, into);
      } else if (k !== 'const' && k !== 'enum' && k !== 'default' && k !== 'examples') refsIn(v, follow, into);
    }
  }
  return into;
}

function within(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The indices of the errors ajv gave for the subschemas of group error `k`: the run just before it,
 * about its value or a part of it, from the group's subschemas (by schema path, or by the `$ref` an
 * inlined reference carries). An error the run cannot be proved to hold stops it: at worst an extra
 * message, never a lost one.
 */
function nestedOf(errors: readonly ErrorObject[], k: number, follow: (ref: string) => unknown): number[] {
  const group = errors[k]!;
  const parent = group.parentSchema as Record<string, unknown> | undefined;
  let prefix = group.schemaPath;
  let sub: unknown = parent?.[group.keyword];
  if (group.keyword === 'if') {
    const branch = (group.params as { failingKeyword: string }).failingKeyword;
    prefix = `${group.schemaPath.slice(0, -'/if'.length)}/${branch}`;
    sub = parent?.[branch];
  }
  const refs = [...refsIn(sub, follow)];
  const out: number[] = [];
  for (let i = k - 1; i >= 0; i--) {
    const e = errors[i]!;
    if (!within(e.instancePath, group.instancePath)) break;
    if (!within(e.schemaPath, prefix) && !refs.some((r) => within(e.schemaPath, r))) break;
    out.push(i);
  }
  return out;
}

/** What an `if` subschema asks, in words (`` `status` is `done` ``), when it is a simple condition on keys. */
function condition(ifSchema: unknown): string | null {
  if (typeof ifSchema !== 'object' || ifSchema === null) return null;
  const props = (ifSchema as { properties?: unknown }).properties;
  if (typeof props !== 'object' || props === null || Object.keys(props).length === 0) return null;
  const parts: string[] = [];
  for (const [key, s] of Object.entries(props as Record<string, unknown>)) {
    if (typeof s !== 'object' || s === null) return null;
    const node = s as { const?: unknown; enum?: unknown };
    if ('const' in node) parts.push(`\`${key}\` is ${constWords(node.const)}`);
    else if (Array.isArray(node.enum)) parts.push(`\`${key}\` is one of ${node.enum.map(constWords).join(', ')}`);
    else return null;
  }
  return parts.join(' and ');
}

function isNode(v: unknown): v is SchemaNode {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The subschema that describes the value at `path`: the one holding the keyword when it has a
 * `description`, else the property at `path` as every subschema that applies defines it, so a root
 * schema that tightens a bundled key by `$ref` (`"description": { "maxLength": 20 }`) keeps the
 * bundled key's description in its messages (docs/messages.md).
 */
function aboutOf(check: SchemaCheck, path: readonly string[], parent: SchemaNode | undefined): SchemaNode | undefined {
  if (typeof parent?.description === 'string' || path.length === 0) return parent;
  let at: RefNode | undefined = check.schema as RefNode;
  for (const seg of path) at = isNode(at) ? propertiesOf(at, check.schema as RefNode, check.lookup)[seg] : undefined;
  return isNode(at) && typeof at['description'] === 'string' ? { description: at['description'] } : parent;
}

const viewsOf = new WeakMap<SchemaCheck, ErrorView[]>();

/** The errors worth a message, each with what the messages need (computed once per check). */
function views(check: SchemaCheck): ErrorView[] {
  let out = viewsOf.get(check);
  if (out) return out;
  const errors = check.errors;
  const follow = followOf(check);
  const hidden = new Set<number>();
  const when = new Map<number, string>();
  errors.forEach((e, k) => {
    if (e.keyword === 'propertyNames') hidden.add(k);
    if (!GROUPS.has(e.keyword)) return;
    const nested = nestedOf(errors, k, follow);
    if (e.keyword !== 'if') {
      for (const i of nested) hidden.add(i);
      return;
    }
    hidden.add(k);
    const parent = e.parentSchema as { if?: unknown } | undefined;
    const cond = condition(parent?.if);
    if (cond === null) return;
    const words = `${(e.params as { failingKeyword: string }).failingKeyword === 'then' ? 'when' : 'unless'} ${cond}`;
    // The innermost `if` (whose error comes first) says it.
    for (const i of nested) if (!when.has(i)) when.set(i, ` ${words}`);
  });
  out = [];
  errors.forEach((error, i) => {
    if (hidden.has(i)) return;
    const path = segments(error.instancePath);
    const parent = isNode(error.parentSchema) ? error.parentSchema : undefined;
    out!.push({
      error,
      path,
      field: path.length > 0 ? `\`${path.join('.')}\`` : 'the document',
      value: valueAt(check.data, path),
      parent,
      about: error.propertyName === undefined ? aboutOf(check, path, parent) : parent,
      when: when.get(i) ?? '',
    });
  });
  viewsOf.set(check, out);
  return out;
}

/** The errors of these keywords about values (not about key names), each with what the messages need. */
export function errorsOf(check: SchemaCheck, keywords: ReadonlySet<string> | ((keyword: string) => boolean)): ErrorView[] {
  const wanted = typeof keywords === 'function' ? keywords : (k: string) => keywords.has(k);
  return views(check).filter((v) => v.error.propertyName === undefined && wanted(v.error.keyword));
}

/** The errors about a key's name (`propertyNames`): `propertyName` is the key, `path` the mapping. */
export function keyNameErrorsOf(check: SchemaCheck): ErrorView[] {
  return views(check).filter((v) => v.error.propertyName !== undefined);
}

/** What the violated keyword asks (`constraint`), then the schema's own words for the value, if any. */
export function expectation(schema: SchemaNode | undefined, constraint: string): string {
  return described(constraint, schema);
}

/** The value an error is about, as messages show it: `` `a` value `x` ``, or the whole `content` at the top. */
export function valueWords(e: ErrorView): string {
  return `${e.path.length > 0 ? `${e.field} value` : 'content'} ${quote(e.value)}`;
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'mapping' : typeof v;
}

/** Reports an error's finding, saying when it applies (errors of `then`/`else`). */
export function reportView(report: Report, e: ErrorView, at: Pos, found: string, expected: string, more?: { fix: Fix }): void {
  report(at, found, `${expected}${e.when}`, more);
}
