import { ConfigError, RuleDataError } from '../model/errors.js';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import type { CompiledSchema, JsonSchema } from '../parse/schema-check.js';
import { jsonSyntaxPos, jsonValuePos } from '../parse/json-position.js';
import { linearPattern, linearRegExp } from '../parse/linear-regexp.js';
import { FILE_START, LineIndex } from '../model/position.js';
import type { Pos } from '../model/position.js';
import { propertiesOf, refLoop } from '../parse/schema-refs.js';
import type { Lookup, SchemaNode } from '../parse/schema-refs.js';
import { pointerSegments } from '../parse/outline/data.js';
import { BUNDLED_SCHEMA_DIR, readRule } from './rule-files.js';
import { Recent } from '../model/recent.js';
import { keepValidator, keptKey, keptValidator } from './kept-validators.js';

const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));
/** Standalone validators precompiled at build time (scripts/build-validators.mjs), by schema text hash. */
export const PRECOMPILED_DIR = resolve(HERE, '../validators');

const compiled = new Recent<string, ValidateFunction>(8);
/**
 * scripts/build-validators.mjs: per manifest (one per set of ajv options: `manifest.json` for rule and
 * configuration schemas), each precompiled validator's module with the exact schema text it was made from.
 */
const manifests = new Map<string, { module: string; schema: string }[] | null>();

/** The module of the validator precompiled from exactly this schema text, if `manifest` lists one. */
export function precompiledModule(text: string, manifest = 'manifest.json'): string | undefined {
  let list = manifests.get(manifest);
  if (list === undefined) {
    try {
      list = JSON.parse(readFileSync(join(PRECOMPILED_DIR, manifest), 'utf8')) as { module: string; schema: string }[];
    } catch {
      list = null; // running from src/ (tests) or an unbuilt tree: compile at run time
    }
    manifests.set(manifest, list);
  }
  const found = list?.find((p) => p.schema === text);
  return found ? join(PRECOMPILED_DIR, found.module) : undefined;
}

/**
 * ajv's strict check that no name of `properties` matches a pattern of `patternProperties` beside it,
 * done here with the linear-time engine: ajv does it with RegExp while compiling, where a crafted
 * pattern and a long property name would backtrack for hours. Same message as ajv's.
 */
function checkMatchingProperties(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) checkMatchingProperties(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const o = node as Record<string, unknown>;
  const patterns = o['patternProperties'];
  const properties = o['properties'];
  if (isPlainObject(patterns) && isPlainObject(properties)) {
    for (const pattern of Object.keys(patterns)) {
      let re: { test(s: string): boolean };
      try {
        re = linearPattern(pattern);
      } catch {
        continue; // reported by ajv when it compiles the pattern
      }
      for (const prop of Object.keys(properties)) {
        if (re.test(prop)) throw new Error(`strict mode: property ${prop} matches pattern ${pattern} (use allowMatchingProperties)`);
      }
    }
  }
  // Values of these keywords are data, not schemas.
  for (const [key, value] of Object.entries(o))
    if (key !== 'const' && key !== 'enum' && key !== 'default' && key !== 'examples') checkMatchingProperties(value);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

let bundled: Map<string, JsonSchema> | undefined;

/**
 * docgate's own JSON Schemas by `$id` (the `*.schema.json` files of its `schemas/`), read when a root's
 * schema first needs them: a root schema `$ref`s them to extend them (docs/formats.md, "Processes"), so what it refers to is
 * the schema of the docgate that runs, and upgrading docgate updates it.
 */
export function bundledSchemas(): ReadonlyMap<string, JsonSchema> {
  if (!bundled) {
    const found = new Map<string, JsonSchema>();
    let names: string[];
    try {
      names = readdirSync(BUNDLED_SCHEMA_DIR)
        .filter((n) => n.endsWith('.schema.json'))
        .sort();
    } catch (e) {
      throw new ConfigError(`cannot read docgate's rule folder ${BUNDLED_SCHEMA_DIR}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
    for (const name of names) {
      const file = join(BUNDLED_SCHEMA_DIR, name);
      let schema: JsonSchema;
      try {
        schema = JSON.parse(readRule(file)) as JsonSchema;
      } catch (e) {
        throw e instanceof ConfigError ? e : new ConfigError(`schema ${file} is not valid JSON: ${(e as Error).message}`);
      }
      if (typeof schema.$id === 'string') found.set(schema.$id, schema);
    }
    bundled = found;
  }
  return bundled;
}

/** The bundled schema with this `$id`. */
export function bundledSchema(id: string): JsonSchema | undefined {
  return bundledSchemas().get(id);
}

/** How `$ref`s of `schema` find documents: its own `$id` is itself (it overrides a bundled one of that `$id`), else docgate's. */
function lookupFor(schema: JsonSchema | boolean): Lookup {
  const own = idOf(schema);
  return (id) => (id === own ? schema : bundledSchema(id));
}

/** A schema's `$id`, if it has one (`true` and `false` are schemas too). */
function idOf(schema: JsonSchema | boolean): string | undefined {
  return typeof schema === 'object' && typeof schema.$id === 'string' ? schema.$id : undefined;
}

/**
 * A bundled schema as a `$ref` target: without its closing `additionalProperties: false`, which could
 * not know the keys the referring schema adds (it would refuse them all). The referring schema closes
 * itself with `unevaluatedProperties: false`, which sees the keys of both.
 */
function openForRef(schema: JsonSchema): JsonSchema {
  const { additionalProperties, ...rest } = schema;
  return additionalProperties === false ? rest : schema;
}

/**
 * The options a schema compiled at run time is compiled with (and the presets' schemas at build time,
 * scripts/build-validators.mjs, there with RegExp for patterns: docgate's own files).
 */
export const RUNTIME_AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  strictTypes: false,
  strictRequired: false,
  verbose: true,
  allowUnionTypes: true,
  allowMatchingProperties: true,
} as const;

/**
 * The ajv compiler, loaded only when a schema has no precompiled validator (it costs ~60 ms to load).
 * Such a schema is a root's own: its patterns run on the linear-time engine (src/parse/linear-regexp.ts),
 * and it may `$ref` docgate's schemas by `$id`. Strict, except for types and required keys, which may
 * come from what it `$ref`s (ajv does not look through a `$ref` for them).
 */
function runtimeCompile(schema: JsonSchema, source = false): { ajv: Ajv2020; validate: ValidateFunction } {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as { Ajv2020: new (o: object) => Ajv2020 };
  const formats = require('ajv-formats') as { default?: (a: Ajv2020) => Ajv2020 } & ((a: Ajv2020) => Ajv2020);
  checkMatchingProperties(schema);
  const loop = refLoop(schema as SchemaNode, lookupFor(schema));
  if (loop !== null) {
    const own = idOf(schema);
    const replaces = own !== undefined && bundledSchema(own) !== undefined;
    throw new Error(
      `${loop}, without going into the data: it would never end${replaces ? ' (a schema that reuses a bundled `$id` replaces it; remove the `$id` to extend it)' : ''}`,
    );
  }
  // A fresh Ajv per distinct schema text: an overriding schema may reuse a bundled `$id`, and then
  // replaces that schema as a `$ref` target too.
  const ajv = new Ajv({ ...RUNTIME_AJV_OPTIONS, code: { regExp: linearRegExp, source } });
  (formats.default ?? formats)(ajv);
  for (const [id, target] of bundledSchemas()) if (id !== idOf(schema)) ajv.addSchema(openForRef(target), id);
  // The meta-schema first, for the place in the file that breaks it (ajv.compile only says what).
  if (!ajv.validateSchema(schema)) {
    const first = ajv.errors?.find((x) => x.keyword !== 'if' && x.keyword !== '$dynamicRef') ?? ajv.errors?.[0];
    if (first)
      throw new SchemaProblem(
        `${first.instancePath.slice(1) || 'the schema'} ${first.message ?? 'is not a JSON Schema'}`,
        first.instancePath
          .split('/')
          .slice(1)
          .map((x) => x.replace(/~1/g, '/').replace(/~0/g, '~')),
      );
  }
  return { ajv, validate: ajv.compile(schema) };
}

/**
 * A root's schema compiled, or the validator an earlier run compiled from the same text and kept
 * (kept-validators.ts); one compiled here is kept for the next run.
 */
function keptCompile(text: string, schema: JsonSchema): ValidateFunction {
  const key = keptKey(text, () => JSON.stringify([...bundledSchemas()]));
  const kept = key === null ? null : keptValidator(key);
  if (kept !== null) return kept;
  const { ajv, validate } = runtimeCompile(schema, key !== null);
  if (key !== null) keepValidator(key, ajv, validate);
  return validate;
}

/**
 * Where the `$ref` or pattern at fault is written (a loop's message names its pointer; ajv's, and the
 * linear-time engine's, quote the reference or pattern); else the file as a whole.
 */
function refPos(text: string, message: string): Pos {
  const pointer = /^`\$(?:dynamic)?[rR]ef` \S+ at #(\/\S*)/.exec(message)?.[1];
  if (pointer !== undefined) return jsonValuePos(text, pointerSegments(pointer));
  const written = /^can't resolve reference (\S+)/.exec(message)?.[1] ?? /^pattern `(.*)` cannot be used: /.exec(message)?.[1];
  const offset = written === undefined ? -1 : text.indexOf(JSON.stringify(written));
  return offset < 0 ? FILE_START : new LineIndex(text).pos(offset);
}

/** A schema that breaks the JSON Schema meta-schema, with the path of the value at fault. */
class SchemaProblem extends Error {
  constructor(
    message: string,
    readonly path: readonly string[],
  ) {
    super(message);
  }
}

export function compile(text: string, file: string, shown = file): CompiledSchema {
  let schema: JsonSchema;
  try {
    schema = JSON.parse(text) as JsonSchema;
  } catch (e) {
    throw new RuleDataError(shown, jsonSyntaxPos(text, e), `schema is not valid JSON: ${(e as Error).message}`);
  }
  if (!isPlainObject(schema) && typeof schema !== 'boolean') {
    const what = schema === null ? 'null' : Array.isArray(schema) ? 'a list' : `a ${typeof schema}`;
    throw new RuleDataError(shown, FILE_START, `schema does not compile: unexpected ${what}, expected a JSON object (or \`true\`/\`false\`)`);
  }
  const lookup = lookupFor(schema);
  const properties = propertiesOf(schema as SchemaNode, schema as SchemaNode, lookup);
  let validate = compiled.get(text);
  if (!validate) {
    const module = precompiledModule(text);
    if (module) {
      // Known to compile (the build did it): loaded when a file is first validated, which a run that
      // only replays the lint cache never does.
      return {
        file,
        schema,
        properties,
        lookup,
        get validate() {
          let v = compiled.get(text);
          if (!v) compiled.set(text, (v = require(module) as ValidateFunction));
          return v;
        },
      };
    }
    try {
      validate = keptCompile(text, schema);
    } catch (e) {
      const at = e instanceof SchemaProblem ? jsonValuePos(text, e.path) : refPos(text, (e as Error).message);
      throw new RuleDataError(shown, at, `schema does not compile: ${(e as Error).message}`);
    }
    compiled.set(text, validate);
  }
  return { file, schema, properties, validate, lookup };
}

/** Reads and compiles one JSON Schema file (a precompiled validator when the text is the one the build saw). */
export function compileRuleFile(path: string, label: string): CompiledSchema {
  return compile(readRule(path), label);
}

/** A dialect's schema as read: its parsed text and the file it came from (as messages name it). */
export interface Dialect {
  schema: JsonSchema;
  shown: string;
  text: string;
}

/**
 * A kind's schema widened by its dialects (a kind's `dialects`: docs/formats.md, "Kinds of your own"): a
 * top-level key that any of them defines in `properties` is accepted, and its value must satisfy the
 * kind's own definition or any dialect's (`anyOf` of the distinct definitions, with the first one's
 * `description`, so messages read as they did). A key only one schema defines keeps that definition as
 * it is, so the schema rules' positions and messages for it are those of that schema alone. The
 * dialects' `$defs` join the kind's (their `#/$defs/…` references then resolve in the widened schema).
 */
/** The text a kind's validator is compiled from when dialects widen its schema (the build precompiles the presets' too). */
export function widenedText(base: JsonSchema, dialects: readonly Dialect[]): string {
  return JSON.stringify(widenSchema(base, dialects));
}

export function widenSchema(base: JsonSchema, dialects: readonly Dialect[]): JsonSchema {
  const own = isPlainObject(base.properties) ? (base.properties as Record<string, unknown>) : {};
  const definitions = new Map<string, unknown[]>(Object.entries(own).map(([k, v]) => [k, [v]]));
  const defs: Record<string, unknown> = isPlainObject(base.$defs) ? { ...(base.$defs as Record<string, unknown>) } : {};
  for (const d of dialects) {
    const props = isPlainObject(d.schema.properties) ? (d.schema.properties as Record<string, unknown>) : {};
    for (const [key, def] of Object.entries(props)) {
      const list = definitions.get(key);
      if (list === undefined) definitions.set(key, [def]);
      else if (!list.some((x) => JSON.stringify(x) === JSON.stringify(def))) list.push(def);
    }
    if (isPlainObject(d.schema.$defs)) {
      for (const [name, def] of Object.entries(d.schema.$defs as Record<string, unknown>)) {
        if (name in defs && JSON.stringify(defs[name]) !== JSON.stringify(def))
          throw new RuleDataError(
            d.shown,
            jsonValuePos(d.text, ['$defs', name]),
            `schema cannot widen the kind: \`$defs/${name}\` differs from the kind's own`,
          );
        defs[name] = def;
      }
    }
  }
  const properties: Record<string, unknown> = {};
  for (const [key, list] of definitions) {
    if (list.length === 1) properties[key] = list[0];
    else {
      const first = list.find((x) => isPlainObject(x) && typeof x['description'] === 'string') as Record<string, unknown> | undefined;
      properties[key] = { ...(first ? { description: first['description'] } : {}), anyOf: list };
    }
  }
  return { ...base, properties, ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) } as JsonSchema;
}
