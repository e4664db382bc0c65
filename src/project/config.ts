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

export interface Config {
  /** The file read, relative to the root where it lies inside it (else absolute); null: no configuration. */
  file: string | null;
  /** Its text ('' without a file): part of what the lint cache and the MCP server key their memory by. */
  text: string;
  ignores: string[];
  kinds: Record<string, KindConfig>;
  /** The root's rule folder, relative to the root. */
  schemas: string;
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

/**
 * Reads and checks the configuration of `root`. Kinds, rule ids and globs are checked against the
 * registry where the project is assembled (they need the configured kinds).
 */
export function loadConfig(root: string, options: { config?: string; cwd?: string; builtinKinds?: readonly string[] } = {}): Config {
  const abs = findConfig(root, options.config, options.cwd ?? process.cwd());
  if (abs === null) return emptyConfig();
  const name = shown(root, abs);
  const text = readConfigText(abs, name);
  const yaml = parseYamlFrontmatter(text, 1);
  const problems: string[] = [];
  for (const i of yaml.issues) {
    const m = yamlMessage(i);
    if (m !== null) problems.push(configProblem(name, i.at, m));
  }
  if (problems.length > 0 || yaml.data === undefined) throw new ConfigError(problems.join('\n') || `${name}: cannot be read`);
  const data = yaml.data;
  // A kind that is neither docgate's nor declared as one of the root's own (with `frontmatter`): unknown.
  const builtin = options.builtinKinds ?? [];
  const unknownKinds = new Set<string>();
  const kinds = data['kinds'];
  if (typeof kinds === 'object' && kinds !== null && !Array.isArray(kinds)) {
    for (const [kind, value] of Object.entries(kinds as Record<string, unknown>)) {
      if (builtin.includes(kind) || (typeof value === 'object' && value !== null && 'frontmatter' in value)) continue;
      unknownKinds.add(kind);
      const known = builtin.map((k) => `\`${k}\``).join(', ');
      problems.push(
        configProblem(
          name,
          yaml.locator.key(['kinds', kind]),
          `Unexpected kind ${quote(kind)}, expected one of: ${known}, or a kind of your own with \`include\` and \`frontmatter\``,
        ),
      );
    }
  }
  const schema = compileRuleFile(join(BUNDLED_SCHEMA_DIR, SCHEMA_FILE), SCHEMA_FILE);
  if (!schema.validate(data) || problems.length > 0) {
    const errors = schema.validate.errors ?? [];
    for (const p of propertyNameProblems(errors, yaml.locator)) problems.push(configProblem(name, p.at, p.message));
    // Errors inside `propertyNames` carry the name they are about; they were reported just above, as
    // were the errors of an unknown kind.
    const rest = errors.filter(
      (e) =>
        e.keyword !== 'propertyNames' &&
        e.propertyName === undefined &&
        !/\/propertyNames\//.test(e.schemaPath) &&
        ![...unknownKinds].some((k) => e.instancePath === `/kinds/${k}` || e.instancePath.startsWith(`/kinds/${k}/`)),
    );
    const check = { errors: rest, data, locator: yaml.locator, schema: schema.schema, lookup: schema.lookup };
    for (const d of runRules(SCHEMA_RULES, { path: name, problem: null, decoding: null, fileName: null }, { schema: check })) {
      problems.push(configProblem(name, d, d.message));
    }
    problems.sort(byPosition);
    throw new ConfigError(problems.join('\n'));
  }
  const c = data as Partial<Omit<Config, 'file' | 'text' | 'locator'>>;
  return {
    file: name,
    text,
    ignores: c.ignores ?? [],
    kinds: c.kinds ?? {},
    schemas: c.schemas ?? 'schemas',
    rules: c.rules ?? {},
    overrides: c.overrides ?? [],
    locator: yaml.locator,
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
  const top = (rule: string): 'off' | 'warning' | 'error' => {
    for (let i = compiled.length - 1; i >= 0; i--) {
      const s = level(compiled[i]!.rules[rule]);
      if (s !== undefined) return s;
    }
    return defaultOf(rule);
  };
  // Without overrides or kind settings every document has the same severities: no work per path.
  if (compiled.every((l) => l.overrides.length === 0 && Object.keys(l.kindRules).length === 0)) return () => top;
  return (path) => {
    const active = compiled.map((l) => l.overrides.filter((o) => o.match(path)));
    const kind = compiled.some((l) => Object.keys(l.kindRules).length > 0) ? kindOf(path) : null;
    if (kind === null && active.every((a) => a.length === 0)) return top;
    return (rule) => {
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
