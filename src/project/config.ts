/**
 * `docgate.config.yaml` / `docgate.config.json` (docs/configuration.md): read as data (never code: CI and the MCP
 * server read the configs of repositories they do not trust), parsed with `yaml` for positions (JSON
 * is YAML 1.2), checked against schemas/docgate.config.schema.json. Every problem is a ConfigError
 * (exit 2) of lines `<file>:<line>:<column> <message>`. No file: no configuration, today's behaviour.
 */
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ErrorObject } from 'ajv';
import { FILE_START, quote } from '../model/position.js';
import type { Locator, Pos } from '../model/position.js';
import { compileRuleFile } from './schemas.js';
import { BUNDLED_SCHEMA_DIR } from './rule-files.js';
import { ConfigError } from '../model/errors.js';
import { parseYamlFrontmatter } from '../parse/yaml-frontmatter.js';
import type { YamlIssue } from '../parse/yaml-frontmatter.js';
import { SCHEMA_RULES } from '../rules/schema/index.js';
import { runRules } from '../engine/analyze-file.js';
import { KIND_NAME } from './config-schema.js';
import { presetFile, presetNames, presetText } from './presets.js';
import { compileGlobs } from '../io/glob.js';
import type { IdSpec } from '../kinds/custom/config.js';

export type Setting = 'off' | 'warn' | 'error';

/** `kinds.<name>` as written (docs/formats.md, "Kinds of your own"); a built-in kind takes `include`, `fileName` and `rules`. */
export interface KindConfig {
  include?: string[];
  fileName?: string;
  id?: IdSpec;
  /** A schema file name, or `none` for a body-only kind. */
  frontmatter?: string;
  outline?: string;
  frontmatterOptional?: boolean;
  dialects?: string[];
  match?: { field: string; equals: 'folder' | 'stem' };
  uniqueIgnoreCase?: boolean;
  body?: { required?: boolean; maxLines?: number; maxBytes?: number };
  lenient?: string[];
  deprecatedInclude?: { globs: string[]; message: string };
  /** Severities for this kind's documents only. */
  rules?: Record<string, Setting>;
}

/** One layer of a configuration: a preset, or the root's own file (docs/formats.md, "Presets"). */
export interface ConfigLayer {
  /** The preset's name; null for the root's own file. */
  preset: string | null;
  ignores: string[];
  /** The kinds as this layer writes them (their `rules` take part in the severity order layer by layer). */
  kinds: Record<string, KindConfig>;
  rules: Record<string, Setting>;
  overrides: { files: string[]; rules: Record<string, Setting> }[];
}

export interface Config {
  /** The file read, relative to the root where it lies inside it (else absolute); null: no configuration. */
  file: string | null;
  /** Its text ('' without a file): part of what the lint cache and the MCP server key their memory by. */
  text: string;
  /** The presets in effect, in layer order: those the file lists, expanded depth-first, each once. */
  presets: string[];
  /**
   * Every layer, lowest first: the presets (in `presets` order), then the file itself. A severity is
   * looked up from the last layer down (each layer's `overrides`, last first, its kind's `rules`, its `rules`).
   */
  layers: ConfigLayer[];
  /** Every layer's `ignores`, concatenated. */
  ignores: string[];
  /** Every layer's kinds merged (see mergeKinds): what the project makes its kinds of. */
  kinds: Record<string, KindConfig>;
  /** The root's rule folder, relative to the root. */
  schemas: string;
  /** The file's own `rules` and `overrides` (a preset's are in its layer). */
  rules: Record<string, Setting>;
  overrides: { files: string[]; rules: Record<string, Setting> }[];
  /** Where each value was read, for errors found after loading (an unknown rule id, a bad glob). */
  locator: Locator;
}

export const CONFIG_FILES = ['docgate.config.yaml', 'docgate.config.json'] as const;
/** Names that would be code: refused, never run. */
const CODE_CONFIGS = ['docgate.config.js', 'docgate.config.cjs', 'docgate.config.mjs', 'docgate.config.ts'];
/** Every name a root's configuration may have (data or code): the files whose appearance changes a project. */
export const CONFIG_CANDIDATES: readonly string[] = [...CONFIG_FILES, ...CODE_CONFIGS];
const MAX_CONFIG_BYTES = 1024 * 1024;
const SCHEMA_FILE = 'docgate.config.schema.json';

/** No configuration: today's behaviour exactly. */
export function emptyConfig(): Config {
  return {
    file: null,
    text: '',
    presets: [],
    layers: [],
    ignores: [],
    kinds: {},
    schemas: 'schemas',
    rules: {},
    overrides: [],
    locator: { value: () => FILE_START, key: () => FILE_START },
  };
}

/** One positioned configuration problem: `<file>:<line>:<column> <message>`. */
export function configProblem(file: string, at: Pos, message: string): string {
  return `${file}:${at.line}:${at.column} ${message}`;
}

function shown(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : abs;
}

/** The configuration file of a root: `--config FILE` (relative to `cwd`), else the one at the root. */
function findConfig(root: string, explicit: string | undefined, cwd: string): string | null {
  if (explicit !== undefined) {
    const abs = resolve(cwd, explicit);
    if (CODE_CONFIGS.some((n) => abs.endsWith(n.slice('docgate.config'.length))) || /\.(c|m)?[jt]s$/.test(abs)) {
      throw new ConfigError(`${explicit}: a configuration is data (YAML or JSON), never code; docgate does not run it`);
    }
    if (!existsSync(abs)) throw new ConfigError(`no such configuration file: ${explicit}`);
    return abs;
  }
  const code = CODE_CONFIGS.filter((n) => existsSync(join(root, n)));
  if (code.length > 0)
    throw new ConfigError(`${code[0]}: a configuration is data (YAML or JSON), never code; docgate does not run it (use docgate.config.yaml)`);
  const found = CONFIG_FILES.filter((n) => existsSync(join(root, n)));
  if (found.length > 1) throw new ConfigError(`both ${found.join(' and ')} exist at the root; keep one`);
  return found.length === 1 ? join(root, found[0]!) : null;
}

function readConfigText(abs: string, name: string): string {
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch (e) {
    throw new ConfigError(`cannot read ${name}: ${(e as Error).message}`);
  }
  if (!st.isFile()) throw new ConfigError(`${name}: not a regular file`);
  if (st.size > MAX_CONFIG_BYTES) throw new ConfigError(`${name}: larger than ${MAX_CONFIG_BYTES} bytes`);
  const bytes = readFileSync(abs);
  const text = bytes.toString('utf8');
  if (Buffer.compare(Buffer.from(text, 'utf8'), bytes) !== 0)
    throw new ConfigError(`${name}:1:1 Unexpected bytes that are not UTF-8, expected a UTF-8 text file`);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function yamlMessage(i: YamlIssue): string | null {
  switch (i.type) {
    case 'syntax':
      return `Unexpected YAML syntax: ${i.detail}`;
    case 'duplicate-key':
      return 'Unexpected duplicate key, expected each key once';
    case 'too-long':
      return `Unexpected configuration of ${i.length} characters, expected at most ${i.max}`;
    case 'too-deep':
      return `Unexpected YAML nested deeper than ${i.max} levels, expected a configuration nested at most ${i.max} levels deep`;
    case 'alias-bomb':
      return `Unexpected alias expansion beyond ${i.max} nodes, expected a configuration without an alias bomb`;
    case 'not-mapping':
      return 'Unexpected configuration that is not a mapping, expected a mapping of keys to values';
    case 'unreadable':
      return `Unexpected YAML that cannot be ${i.stage === 'parse' ? 'parsed' : 'read'}: ${i.detail}`;
    case 'unquoted-timestamp':
      return null; // a string to us; no configuration value is a timestamp
  }
}

/** ajv errors inside `propertyNames` (a bad rule id or kind name): one message per name, at its key. */
function propertyNameProblems(errors: readonly ErrorObject[], locator: Locator): { at: Pos; message: string }[] {
  const out: { at: Pos; message: string }[] = [];
  for (const e of errors) {
    if (e.keyword !== 'propertyNames') continue;
    const name = (e.params as { propertyName: string }).propertyName;
    const path = e.instancePath
      .slice(1)
      .split('/')
      .filter((s) => s !== '');
    const at = locator.key([...path, name]);
    if (path[path.length - 1] === 'kinds')
      out.push({ at, message: `Unexpected kind name ${quote(name)}, expected lowercase words joined by \`-\` (${KIND_NAME})` });
    else out.push({ at, message: `Unexpected rule id ${quote(name)}, expected a rule id of docgate (see docs/rules.md) or of a configured kind` });
  }
  return out;
}

/** One configuration file read: a preset's or the root's own, with where each value was read. */
interface LayerFile {
  /** How it is named in messages (`docgate.config.yaml`, `presets/agent-skills.yaml`). */
  name: string;
  data: Record<string, unknown>;
  locator: Locator;
}

/** Parses a configuration text with positions: its YAML problems are a ConfigError. */
function parseLayer(name: string, text: string): LayerFile {
  const yaml = parseYamlFrontmatter(text, 1);
  const problems: string[] = [];
  for (const i of yaml.issues) {
    const m = yamlMessage(i);
    if (m !== null) problems.push(configProblem(name, i.at, m));
  }
  if (problems.length > 0 || yaml.data === undefined) throw new ConfigError(problems.join('\n') || `${name}: cannot be read`);
  return { name, data: yaml.data, locator: yaml.locator };
}

/**
 * Checks one configuration file against the configuration schema, and its kinds against the known ones:
 * docgate's, and `inherited` (the kinds the layers below it define, which it may override key by key
 * without repeating their `include` and `frontmatter`). `problems` come first (found while layering).
 */
function checkLayer(layer: LayerFile, builtin: readonly string[], inherited: ReadonlySet<string>, problems: string[]): void {
  const { name, data, locator } = layer;
  // A kind that is neither docgate's, nor a preset's, nor declared as one of the root's own (with `frontmatter`): unknown.
  const unknownKinds = new Set<string>();
  const kinds = data['kinds'];
  if (typeof kinds === 'object' && kinds !== null && !Array.isArray(kinds)) {
    for (const [kind, value] of Object.entries(kinds as Record<string, unknown>)) {
      if (builtin.includes(kind) || inherited.has(kind) || (typeof value === 'object' && value !== null && 'frontmatter' in value)) continue;
      unknownKinds.add(kind);
      const known = builtin.map((k) => `\`${k}\``).join(', ');
      problems.push(
        configProblem(
          name,
          locator.key(['kinds', kind]),
          `Unexpected kind ${quote(kind)}, expected one of: ${known}, or a kind of your own with \`include\` and \`frontmatter\`${presetHint(kind)}`,
        ),
      );
    }
  }
  const schema = compileRuleFile(join(BUNDLED_SCHEMA_DIR, SCHEMA_FILE), SCHEMA_FILE);
  const valid = schema.validate(data);
  // A preset's kind overridden here keeps the preset's `include` and `frontmatter`: not missing.
  // An unknown preset name is reported by the layering, with the names docgate ships.
  const errors = (schema.validate.errors ?? []).filter(
    (e) =>
      !(e.keyword === 'required' && /^\/kinds\/[^/]+$/.test(e.instancePath) && inherited.has(e.instancePath.slice('/kinds/'.length))) &&
      !(e.keyword === 'enum' && /^\/presets\/\d+$/.test(e.instancePath) && typeof e.data === 'string'),
  );
  if ((valid || errors.length === 0) && problems.length === 0) return;
  for (const p of propertyNameProblems(errors, locator)) problems.push(configProblem(name, p.at, p.message));
  // Errors inside `propertyNames` carry the name they are about; they were reported just above, as
  // were the errors of an unknown kind.
  const rest = errors.filter(
    (e) =>
      e.keyword !== 'propertyNames' &&
      e.propertyName === undefined &&
      !/\/propertyNames\//.test(e.schemaPath) &&
      ![...unknownKinds].some((k) => e.instancePath === `/kinds/${k}` || e.instancePath.startsWith(`/kinds/${k}/`)),
  );
  const check = { errors: rest, data, locator, schema: schema.schema, lookup: schema.lookup };
  for (const d of runRules(SCHEMA_RULES, { path: name, problem: null, decoding: null, fileName: null }, { schema: check })) {
    problems.push(configProblem(name, d, d.message));
  }
  problems.sort(byPosition);
  throw new ConfigError(problems.join('\n'));
}

/** For a kind a shipped preset defines, the preset to list (a root that names `skill` without `presets` most likely forgot it). */
function presetHint(kind: string): string {
  const by = presetNames().filter((p) => {
    try {
      return 'frontmatter' in (kindsOfLayer(parseLayer(presetFile(p), presetText(p)).data)[kind] ?? {});
    } catch {
      return false; // a preset that does not parse is reported where it is used
    }
  });
  return by.length > 0
    ? ` (\`${kind}\` is a kind of the preset${by.length > 1 ? 's' : ''} ${by.map((p) => `\`${p}\``).join(', ')}: list it in \`presets\`)`
    : '';
}

/** The preset names a configuration file lists, with their positions (what is not a list of strings, the schema reports). */
function presetsListed(layer: LayerFile): { name: string; at: Pos }[] {
  const list = layer.data['presets'];
  if (!Array.isArray(list)) return [];
  return list.flatMap((n, i) => (typeof n === 'string' ? [{ name: n, at: layer.locator.value(['presets', String(i)]) }] : []));
}

/** A kind as its layer wrote it, or nothing when it is not a mapping (the schema reports that). */
function kindsOfLayer(data: Record<string, unknown>): Record<string, KindConfig> {
  const kinds = data['kinds'];
  return typeof kinds === 'object' && kinds !== null && !Array.isArray(kinds) ? (kinds as Record<string, KindConfig>) : {};
}

/** The layer a checked configuration file makes. */
function layerOf(data: Record<string, unknown>, preset: string | null): ConfigLayer {
  const c = data as Partial<Omit<Config, 'file' | 'text' | 'locator'>>;
  return { preset, ignores: c.ignores ?? [], kinds: c.kinds ?? {}, rules: c.rules ?? {}, overrides: c.overrides ?? [] };
}

/**
 * The presets a configuration file lists, expanded depth-first in order, each once (a preset that builds
 * on another lists it in its own `presets`), every one read and checked. An unknown name is a problem at
 * the name; so are two presets that both define one kind (give its `frontmatter`), at the name of the
 * second in the root's file (the name through which that preset came).
 */
function expandPresets(root: LayerFile, builtin: readonly string[], problems: string[]): ConfigLayer[] {
  const layers: ConfigLayer[] = [];
  const seen = new Set<string>();
  const inherited = new Set<string>();
  const definedBy = new Map<string, string>();
  const known = presetNames();
  const visit = (name: string, from: LayerFile, at: Pos, via: Pos): void => {
    if (!known.includes(name)) {
      const list = known.map((n) => `\`${n}\``).join(', ');
      problems.push(configProblem(from.name, at, `Unexpected preset ${quote(name)}, expected one of: ${list}`));
      return;
    }
    if (seen.has(name)) return;
    seen.add(name);
    const file = parseLayer(presetFile(name), presetText(name));
    for (const p of presetsListed(file)) visit(p.name, file, p.at, via);
    const own: string[] = [];
    checkLayer(file, builtin, inherited, own);
    for (const [kind, k] of Object.entries(kindsOfLayer(file.data))) {
      inherited.add(kind);
      if (!('frontmatter' in k)) continue;
      const first = definedBy.get(kind);
      if (first !== undefined) problems.push(configProblem(root.name, via, `presets \`${first}\` and \`${name}\` both define kind \`${kind}\``));
      else definedBy.set(kind, name);
    }
    layers.push(layerOf(file.data, name));
  };
  for (const p of presetsListed(root)) visit(p.name, root, p.at, p.at);
  return layers;
}

/**
 * The kinds of all layers, merged kind by kind and key by key, later layers winning, except `dialects`
 * (concatenated, each once) and `rules` (merged by rule id).
 */
function mergeKinds(layers: readonly ConfigLayer[]): Record<string, KindConfig> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const layer of layers) {
    for (const [kind, k] of Object.entries(layer.kinds)) {
      const into = (out[kind] ??= {});
      for (const [key, value] of Object.entries(k as Record<string, unknown>)) {
        if (key === 'dialects' && Array.isArray(value)) into[key] = [...new Set([...((into[key] as unknown[]) ?? []), ...value])];
        else if (key === 'rules' && typeof value === 'object' && value !== null) into[key] = { ...(into[key] as object), ...value };
        else into[key] = value;
      }
    }
  }
  return out as Record<string, KindConfig>;
}

/**
 * Reads and checks the configuration of `root`, with the presets it lists. Kinds, rule ids and globs
 * are checked against the registry where the project is assembled (they need the configured kinds).
 */
export function loadConfig(root: string, options: { config?: string; cwd?: string; builtinKinds?: readonly string[] } = {}): Config {
  const abs = findConfig(root, options.config, options.cwd ?? process.cwd());
  if (abs === null) return emptyConfig();
  const name = shown(root, abs);
  const text = readConfigText(abs, name);
  const file = parseLayer(name, text);
  const builtin = options.builtinKinds ?? [];
  const problems: string[] = [];
  const presets = expandPresets(file, builtin, problems);
  checkLayer(file, builtin, new Set(presets.flatMap((l) => Object.keys(l.kinds))), problems);
  const own = layerOf(file.data, null);
  const layers = [...presets, own];
  return {
    file: name,
    text,
    presets: presets.map((l) => l.preset!),
    layers,
    ignores: layers.flatMap((l) => l.ignores),
    kinds: mergeKinds(layers),
    // The rule folder is the root's own: a preset's rule files are docgate's (the fallback of every kind).
    schemas: (file.data['schemas'] as string | undefined) ?? 'schemas',
    rules: own.rules,
    overrides: own.overrides,
    locator: file.locator,
  };
}

function byPosition(a: string, b: string): number {
  const pa = /:(\d+):(\d+) /.exec(a);
  const pb = /:(\d+):(\d+) /.exec(b);
  return Number(pa?.[1]) - Number(pb?.[1]) || Number(pa?.[2]) - Number(pb?.[2]) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * One configuration layer's rule settings: a preset's, or the user's file. `kindRules` are the `rules`
 * of each `kinds.<name>`.
 */
export interface SeverityLayer {
  rules: Readonly<Record<string, Setting>>;
  kindRules: Readonly<Record<string, Readonly<Record<string, Setting>>>>;
  overrides: readonly { files: readonly string[]; rules: Readonly<Record<string, Setting>> }[];
}

/** The severity layer of one configuration (its top-level `rules`, each kind's `rules`, its `overrides`). */
export function severityLayer(config: Pick<Config, 'rules' | 'kinds' | 'overrides'>): SeverityLayer {
  // Without a prototype: a kind named `constructor` finds its own settings, never Object's.
  const kindRules: Record<string, Record<string, Setting>> = Object.create(null) as Record<string, Record<string, Setting>>;
  for (const [name, k] of Object.entries(config.kinds)) if (k.rules !== undefined) kindRules[name] = k.rules;
  return { rules: config.rules, kindRules, overrides: config.overrides };
}

function level(setting: Setting | undefined): 'off' | 'warning' | 'error' | undefined {
  return setting === 'warn' ? 'warning' : setting;
}

/**
 * The severity of each rule for the document at a path (docs/configuration.md), ESLint-like: layers
 * from the last (the user's file) to the first; in each, its `overrides` whose `files` match (later
 * blocks first), then `kinds.<kind>.rules` of the document's kind, then its `rules`; then the rule's
 * default. `layers`: lowest precedence first. `kindOf`: the kind of a path (null for none).
 */
export function severityResolver(
  layers: readonly SeverityLayer[],
  defaultOf: (rule: string) => 'off' | 'warning' | 'error',
  kindOf: (path: string) => string | null,
): (path: string) => (rule: string) => 'off' | 'warning' | 'error' {
  const compiled = layers.map((l) => ({ ...l, overrides: l.overrides.map((o) => ({ match: compileGlobs(o.files), rules: o.rules })) }));
  // A rule's severity without overrides is asked for every rule of every document: found once per rule
  // (up to a bound: a directive may name any string).
  const topLevels = new Map<string, 'off' | 'warning' | 'error'>();
  const top = (rule: string): 'off' | 'warning' | 'error' => {
    let found = topLevels.get(rule);
    if (found !== undefined) return found;
    for (let i = compiled.length - 1; i >= 0 && found === undefined; i--) found = level(compiled[i]!.rules[rule]);
    found ??= defaultOf(rule);
    if (topLevels.size < 4096) topLevels.set(rule, found);
    return found;
  };
  // Without overrides or kind settings every document has the same severities: no work per path.
  if (compiled.every((l) => l.overrides.length === 0 && Object.keys(l.kindRules).length === 0)) return () => top;
  const withKinds = compiled.some((l) => Object.keys(l.kindRules).length > 0);
  // Where no override matches, a path's severities are its kind's: one function per kind, so that what
  // is found from it per rule list (analyze-file.ts `levelsOf`) is found once per kind, not per document.
  const ofKind = new Map<string, (rule: string) => 'off' | 'warning' | 'error'>();
  return (path) => {
    const active = compiled.map((l) => l.overrides.filter((o) => o.match(path)));
    const kind = withKinds ? kindOf(path) : null;
    const plain = active.every((a) => a.length === 0);
    if (kind === null && plain) return top;
    const known = plain && kind !== null ? ofKind.get(kind) : undefined;
    if (known !== undefined) return known;
    const resolve = (rule: string): 'off' | 'warning' | 'error' => {
      for (let i = compiled.length - 1; i >= 0; i--) {
        const list = active[i]!;
        for (let j = list.length - 1; j >= 0; j--) {
          const s = level(list[j]!.rules[rule]);
          if (s !== undefined) return s;
        }
        const k = kind === null ? undefined : level(compiled[i]!.kindRules[kind]?.[rule]);
        if (k !== undefined) return k;
        const s = level(compiled[i]!.rules[rule]);
        if (s !== undefined) return s;
      }
      return defaultOf(rule);
    };
    if (plain && kind !== null) ofKind.set(kind, resolve);
    return resolve;
  };
}

/**
 * One line per kind whose include a configuration gave (a kind of your own, or a built-in kind moved by
 * `include`) and that matched none of the documents a whole-root run checked: a typo'd glob is never
 * silent. For stderr only: never in a report.
 */
export function unmatchedKindLines(config: Pick<Config, 'kinds'>, checked: readonly { kind: string }[]): string[] {
  const seen = new Set(checked.map((c) => c.kind));
  const out: string[] = [];
  for (const [name, k] of Object.entries(config.kinds)) {
    if (k.include === undefined || seen.has(name)) continue;
    out.push(`docgate: kind \`${name}\` matches no file (include: ${k.include.join(', ')})`);
  }
  return out;
}
