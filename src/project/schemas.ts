import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { jsonSyntaxPos, jsonValuePos } from '../parse/json-position.js';
import { linearPattern, linearRegExp } from '../parse/linear-regexp.js';
import { FILE_START, LineIndex } from '../model/position.js';
import type { Pos } from '../model/position.js';
import { isInside, listInside, readInside, realFolder, resolved, whyUnread } from '../io/safe-fs.js';
import { propertiesOf, refLoop } from '../parse/schema-refs.js';
import type { Lookup, SchemaNode } from '../parse/schema-refs.js';
import type { HeadingTable } from '../model/types.js';
import { pointerSegments } from '../parse/outline/data.js';
import { checkOutline } from './outline-files.js';
import { record } from '../model/records.js';

/** docgate's own `schemas/` folder (next to `dist/` and `src/`). */
export const BUNDLED_SCHEMA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../schemas');

/** The JSON Schema of every outline file (docgate's own; a root cannot override it). */
export const OUTLINE_SCHEMA_FILE = 'outline.schema.json';

/** A usage or configuration problem (exit code 2), as opposed to a content defect. */
export class ConfigError extends Error {}

/** A command line docgate cannot read (unknown command, option or format): the usage follows the message. */
export class UsageError extends ConfigError {}

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
}

/** The rule data of one kind: its compiled schema, its outline, its heading tables by language. */
export interface KindRules {
  schema: CompiledSchema | null;
  outline: unknown;
  headingTables: ReadonlyMap<string, HeadingTable>;
}

/** Where a kind's rule files are found (names in the root's rule folder, else docgate's own `schemas/`). */
export interface RuleFileNames {
  schema?: string;
  outline?: string;
  /** Heading tables of language variants: file names matching this, `<lang>` captured first. */
  headingTables?: RegExp;
}

/** The rule data of every kind of a root, read from its rule files. */
export interface RuleData {
  kinds: ReadonlyMap<string, KindRules>;
  /** Every rule file's name and text: rules are the same exactly when their keys are (the lint cache keeps it). */
  key: string;
}

const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));
/** Standalone validators precompiled at build time (scripts/build-validators.mjs), by schema text hash. */
export const PRECOMPILED_DIR = resolve(HERE, '../validators');

const compiled = new Map<string, ValidateFunction>();
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
  for (const [key, value] of Object.entries(o)) if (key !== 'const' && key !== 'enum' && key !== 'default' && key !== 'examples') checkMatchingProperties(value);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

let bundled: Map<string, JsonSchema> | undefined;

/**
 * docgate's own JSON Schemas by `$id` (the `*.schema.json` files of its `schemas/`), read when a root's
 * schema first needs them: a root schema `$ref`s them to extend them (SPEC §8), so what it refers to is
 * the schema of the docgate that runs, and upgrading docgate updates it.
 */
function bundledSchemas(): ReadonlyMap<string, JsonSchema> {
  if (!bundled) {
    const found = new Map<string, JsonSchema>();
    let names: string[];
    try {
      names = readdirSync(BUNDLED_SCHEMA_DIR).filter((n) => n.endsWith('.schema.json')).sort();
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
 * The ajv compiler, loaded only when a schema has no precompiled validator (it costs ~60 ms to load).
 * Such a schema is a root's own: its patterns run on the linear-time engine (src/parse/linear-regexp.ts),
 * and it may `$ref` docgate's schemas by `$id`. Strict, except for types and required keys, which may
 * come from what it `$ref`s (ajv does not look through a `$ref` for them).
 */
function runtimeCompile(schema: JsonSchema): ValidateFunction {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as { Ajv2020: new (o: object) => Ajv2020 };
  const formats = require('ajv-formats') as { default?: (a: Ajv2020) => Ajv2020 } & ((a: Ajv2020) => Ajv2020);
  checkMatchingProperties(schema);
  const loop = refLoop(schema as SchemaNode, lookupFor(schema));
  if (loop !== null) {
    const own = idOf(schema);
    const replaces = own !== undefined && bundledSchema(own) !== undefined;
    throw new Error(`${loop}, without going into the data: it would never end${replaces ? ' (a schema that reuses a bundled `$id` replaces it; remove the `$id` to extend it)' : ''}`);
  }
  // A fresh Ajv per distinct schema text: an overriding schema may reuse a bundled `$id`, and then
  // replaces that schema as a `$ref` target too.
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    verbose: true,
    allowUnionTypes: true,
    allowMatchingProperties: true,
    code: { regExp: linearRegExp },
  });
  (formats.default ?? formats)(ajv);
  for (const [id, target] of bundledSchemas()) if (id !== idOf(schema)) ajv.addSchema(openForRef(target), id);
  // The meta-schema first, for the place in the file that breaks it (ajv.compile only says what).
  if (!ajv.validateSchema(schema)) {
    const first = ajv.errors?.find((x) => x.keyword !== 'if' && x.keyword !== '$dynamicRef') ?? ajv.errors?.[0];
    if (first) throw new SchemaProblem(`${first.instancePath.slice(1) || 'the schema'} ${first.message ?? 'is not a JSON Schema'}`, first.instancePath.split('/').slice(1).map((x) => x.replace(/~1/g, '/').replace(/~0/g, '~')));
  }
  return ajv.compile(schema);
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

/** A rule file as messages name it: root-relative (`schemas/x.json`), or docgate's own by its full path. */
function shownPath(root: string, file: string): string {
  const rel = relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : file;
}

function compile(text: string, file: string, shown = file): CompiledSchema {
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
  const properties = propertiesOf(schema as SchemaNode, schema as SchemaNode, lookupFor(schema));
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
        get validate() {
          let v = compiled.get(text);
          if (!v) compiled.set(text, (v = require(module) as ValidateFunction));
          return v;
        },
      };
    }
    try {
      validate = runtimeCompile(schema);
    } catch (e) {
      const at = e instanceof SchemaProblem ? jsonValuePos(text, e.path) : refPos(text, (e as Error).message);
      throw new RuleDataError(shown, at, `schema does not compile: ${(e as Error).message}`);
    }
    compiled.set(text, validate);
  }
  return { file, schema, properties, validate };
}

/** Reads and compiles one JSON Schema file (a precompiled validator when the text is the one the build saw). */
export function compileRuleFile(path: string, label: string): CompiledSchema {
  return compile(readRule(path), label);
}

/** Largest rule file read: schemas, outlines and heading tables are a few kilobytes. */
export const MAX_RULE_BYTES = 1024 * 1024;

/**
 * The root's own rule folder, or null when it has none. It must resolve inside the root: a `schemas`
 * link to elsewhere is a configuration error (its files are never looked at, not even listed).
 */
export function ownSchemaDir(root: string, folder = 'schemas'): string | null {
  const dir = join(root, folder);
  let st;
  try {
    st = lstatSync(dir, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (!st) return null;
  // A plain folder of the root lies inside it; only a link needs resolving.
  if (!st.isSymbolicLink()) return dir;
  const target = resolved(dir);
  if ('code' in target) return null;
  if (!isInside(realFolder(root) ?? root, target.real)) throw new ConfigError(`cannot read rule folder ${dir}: it resolves outside the root (through a symbolic link)`);
  return dir;
}

/** The file that holds rule file `name` for `root`: the root's own `schemas/` overrides ours file by file. */
export function ruleFile(root: string, name: string, folder = 'schemas'): string {
  const dir = ownSchemaDir(root, folder);
  if (dir !== null) {
    const own = join(dir, name);
    try {
      // Any entry by that name is the root's (a broken link or a FIFO too: an error, never our file instead).
      if (lstatSync(own, { throwIfNoEntry: false })) return own;
    } catch {
      /* not reachable as a file: ours */
    }
  }
  return join(BUNDLED_SCHEMA_DIR, name);
}

/** Where the rules of rule folder `dir` must resolve into (real path): docgate's own `schemas/`, or the root of `<root>/schemas`. */
function ruleRoot(dir: string): string {
  const top = isInside(BUNDLED_SCHEMA_DIR, dir) ? BUNDLED_SCHEMA_DIR : dirname(dir);
  return realFolder(top) ?? top;
}

/**
 * Reads a rule file as a regular file of at most MAX_RULE_BYTES, inside the root (or docgate's own
 * folder), without blocking on a FIFO; anything else is a configuration error naming the file, never
 * quoting what is in it.
 */
function readRule(path: string): string {
  const r = readInside(path, ruleRoot(dirname(path)), MAX_RULE_BYTES);
  if (r.kind !== 'bytes') throw new ConfigError(`cannot read rule file ${path}: ${whyUnread(r, MAX_RULE_BYTES)}`);
  return r.bytes.toString('utf8');
}

/** The text of rule file `name` for `root` (an MCP resource); a ConfigError when it cannot be read. */
export function readRuleFile(root: string, name: string, folder = 'schemas'): string {
  return readRule(ruleFile(root, name, folder));
}

/** The text of one of docgate's own rule files. */
export function readBundledRuleFile(name: string): string {
  return readRule(join(BUNDLED_SCHEMA_DIR, name));
}

/** Heading tables in a rule folder, listed through a handle checked to lie inside the folder's root. */
function listTables(dir: string, pattern: RegExp, into: Map<string, string>): void {
  const listing = listInside(dir, ruleRoot(dir));
  if (listing.kind === 'absent' || (listing.kind === 'error' && listing.code === 'ENOTDIR')) return;
  if (listing.kind !== 'listed') throw new ConfigError(`cannot read rule folder ${dir}: ${listing.kind === 'outside' ? 'it resolves outside the root (through a symbolic link)' : listing.code}`);
  for (const entry of listing.entries) {
    const m = pattern.exec(entry.name);
    if (m) into.set(m[1]!, join(dir, entry.name));
  }
}

/**
 * A refused rule file (a schema, an outline, a heading table): a configuration error (exit 2) read as
 * `<file>:<line>:<column> <problem>`, positioned at the value at fault (1:1 for the file as a whole),
 * like a problem in the configuration file.
 */
export class RuleDataError extends ConfigError {
  constructor(
    readonly file: string,
    readonly at: Pos,
    problem: string,
  ) {
    super(`${file}:${at.line}:${at.column} ${problem}`);
  }
}

const loaded = new Map<string, RuleData>();

/**
 * Loads (once per rule-file content) what the rules of each kind read: its schema, its outline and its
 * heading tables, each from the root's rule folder (`folder`, default `schemas`) where it has that file,
 * else from docgate's own `schemas/`.
 */
export function loadRuleData(root: string, kinds: readonly { name: string; ruleFiles: RuleFileNames }[], folder = 'schemas'): RuleData {
  const parts: string[] = [];
  const texts = new Map<string, { file: string; text: string }>();
  const read = (name: string): { file: string; text: string } => {
    let r = texts.get(name);
    if (!r) {
      const file = ruleFile(root, name, folder);
      r = { file, text: readRule(file) };
      texts.set(name, r);
      parts.push(name, r.text);
    }
    return r;
  };
  const own = ownSchemaDir(root, folder);
  const tableFiles = new Map<string, Map<string, { text: string; file: string }>>();
  for (const kind of kinds) {
    if (kind.ruleFiles.schema) read(kind.ruleFiles.schema);
    if (kind.ruleFiles.outline) read(kind.ruleFiles.outline);
    const pattern = kind.ruleFiles.headingTables;
    if (!pattern) continue;
    const found = new Map<string, string>();
    listTables(BUNDLED_SCHEMA_DIR, pattern, found);
    if (own !== null) listTables(own, pattern, found);
    const tables = new Map<string, { text: string; file: string }>();
    for (const [lang, file] of [...found].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const text = readRule(file);
      tables.set(lang, { text, file: shownPath(root, file) });
      parts.push(lang, text);
    }
    tableFiles.set(kind.name, tables);
  }
  // A root's own schema that may `$ref` docgate's by `$id` depends on their texts too (the cache must
  // not replay results of a schema it refers to as it was in another build of the same version).
  if ([...texts.values()].some((r) => !r.file.startsWith(BUNDLED_SCHEMA_DIR + sep) && r.text.includes('"$ref"'))) {
    for (const [id, schema] of bundledSchemas()) parts.push(id, JSON.stringify(schema));
  }
  // NUL never occurs in a rule file that parses as JSON, so the key splits back into the same parts.
  const key = `${kinds.map((k) => k.name).join(',')}\0${parts.join('\0')}`;
  const cached = loaded.get(key);
  if (cached) return cached;

  const out = new Map<string, KindRules>();
  for (const kind of kinds) {
    const schemaFile = kind.ruleFiles.schema ? texts.get(kind.ruleFiles.schema)! : null;
    const schema = schemaFile ? compile(schemaFile.text, schemaFile.file, shownPath(root, schemaFile.file)) : null;
    let outline: unknown = null;
    let headingTables: ReadonlyMap<string, HeadingTable> = new Map();
    if (kind.ruleFiles.outline) {
      const { file, text } = texts.get(kind.ruleFiles.outline)!;
      ({ outline, headingTables } = checkOutline(text, shownPath(root, file), tableFiles.get(kind.name) ?? new Map()));
    }
    out.set(kind.name, { schema, outline, headingTables });
  }
  const data: RuleData = { kinds: out, key };
  loaded.set(key, data);
  return data;
}

/** Replaces null or blank values by the schema's `default`, and fills absent keys that have one. */
export function applyDefaults(data: Record<string, unknown>, properties: Record<string, SchemaNode>): Record<string, unknown> {
  const out = Object.assign(record<unknown>(), data);
  for (const [key, sub] of Object.entries(properties)) {
    // A boolean subschema (`"name": true`) has no default.
    if (!isPlainObject(sub) || !('default' in sub)) continue;
    const v = out[key];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) out[key] = sub.default;
  }
  return out;
}

/** The rule files a kind reads for a root, as messages name them (root-relative, or docgate's own by full path). */
export interface RuleFilesUsed {
  schema?: string;
  outline?: string;
  /** Heading tables by language. */
  headingTables?: Record<string, string>;
}

/** Which rule file each of a kind's rule files is for `root` (what `--print-config` shows): the root's own where it has one, else docgate's. */
export function ruleFilesUsed(root: string, names: RuleFileNames, folder = 'schemas'): RuleFilesUsed {
  const out: RuleFilesUsed = {};
  if (names.schema) out.schema = shownPath(root, ruleFile(root, names.schema, folder));
  if (names.outline) out.outline = shownPath(root, ruleFile(root, names.outline, folder));
  if (names.headingTables) {
    const found = new Map<string, string>();
    listTables(BUNDLED_SCHEMA_DIR, names.headingTables, found);
    const own = ownSchemaDir(root, folder);
    if (own !== null) listTables(own, names.headingTables, found);
    out.headingTables = Object.fromEntries([...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([lang, file]) => [lang, shownPath(root, file)]));
  }
  return out;
}
