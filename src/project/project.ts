/**
 * A project: one root as docgate sees it. Its configuration (docs/configuration.md), its kinds (the
 * registry's, where the configuration places them, and kinds of its own), the layout they make, the rule data of
 * each kind (schemas, outlines, heading tables), and every rule id. Everything that lints, caches or
 * serves documents works from a project; its `key` changes whenever any of that data does.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sha256 } from '../io/file-identity.js';
import { Layout } from '../io/layout.js';
import { linearPattern } from '../parse/linear-regexp.js';
import type { Pos } from '../model/position.js';
import { loadRuleData } from './rule-data.js';
import { ConfigError } from '../model/errors.js';
import { CUSTOM_SHARED_RULE_IDS, customKind } from '../kinds/custom/kind.js';
import { BUILTIN_KINDS, rulesOf } from '../kinds/index.js';
import type { RuleEntry } from '../kinds/index.js';
import { loadSuppressions, suppressionsPath } from './baseline.js';
import type { Suppressions } from './baseline.js';
import { CONFIG_CANDIDATES, configProblem, loadConfig, severityLayer, severityResolver } from './config.js';
import type { Config } from './config.js';
import { GlobError, MAX_CONFIG_ALTERNATIVES, TooManyAlternatives, compilePathGlob } from '../io/glob.js';
import type { AlternativeBudget } from '../io/glob.js';
import type { SeverityOf } from '../engine/rule.js';
import type { AnyKind, KindData } from '../engine/kind.js';
import { Recent } from '../model/recent.js';

export interface Project {
  readonly root: string;
  readonly config: Config;
  /** Every kind, in registry order: the built-in ones, then the configured ones. */
  readonly kinds: readonly AnyKind[];
  readonly layout: Layout;
  /** Every rule of every kind, by id. */
  readonly rules: ReadonlyMap<string, RuleEntry>;
  /** `--ignore-pattern` globs, added to the configuration's `ignores`. */
  readonly ignorePatterns: readonly string[];
  /** The baseline (docs/formats.md, "The baseline file"): errors accepted per document and rule, applied where results are made. */
  readonly suppressions: Suppressions;
  kind(name: string): AnyKind | undefined;
  data(kind: AnyKind): KindData;
  /**
   * The severity of each rule for the document at `path` (docs/configuration.md): the rule's default, then the
   * configuration's `rules`, then every `overrides` block whose `files` match, later blocks winning.
   */
  severityFor(path: string): SeverityOf;
  /**
   * Rule files, configuration, kinds, ignore patterns and baseline: a lint cache or an MCP memory is
   * valid only under the same key.
   */
  readonly key: string;
  /** SHA-256 of `key`, computed on first use (node:crypto costs ~5 ms to load; a cache hit never needs it). */
  readonly hash: string;
  /**
   * Every path the project was made from, whether it exists or not (the configuration files a root may
   * have, its rule folder and rule files, the baseline): while none of their stat identities changes, a
   * long-running server may keep the project instead of loading it at every call.
   */
  readonly inputs: readonly string[];
  /** The options it was loaded with (what a worker thread needs to load the same project). */
  readonly options: ProjectOptions;
}

/** What a root's configuration and rule files make, kept by their content (the baseline is read per call). */
type ProjectRules = Omit<Project, 'suppressions' | 'hash' | 'inputs' | 'options'>;

export interface ProjectOptions {
  /** `--config FILE`, relative to `cwd`. */
  config?: string;
  cwd?: string;
  /** `--ignore-pattern GLOB`s: root-relative, added to the configuration's `ignores` (ESLint's flag). */
  ignorePatterns?: readonly string[];
  /** `--suppressions-location FILE`, relative to `cwd` (default: docgate-suppressions.json at the root). */
  suppressions?: string;
}

/** The options of a project alone (what a worker thread needs to load the same project). */
export function projectOptions(o: ProjectOptions): ProjectOptions {
  const out: ProjectOptions = {};
  if (o.config !== undefined) out.config = o.config;
  if (o.cwd !== undefined) out.cwd = o.cwd;
  if (o.ignorePatterns !== undefined && o.ignorePatterns.length > 0) out.ignorePatterns = [...o.ignorePatterns];
  if (o.suppressions !== undefined) out.suppressions = o.suppressions;
  return out;
}

/**
 * Projects made, by root and key (the text of every rule file): the last few, so that a long-lived server
 * whose rule files are edited a thousand times holds a few projects, not a thousand.
 */
const projects = new Recent<string, ProjectRules>(8);

/** The severity function of a configuration over a set of rules (see Project.severityFor). */
function severities(config: Config, rules: ReadonlyMap<string, RuleEntry>, layout: Layout): (path: string) => SeverityOf {
  const defaults = (rule: string): 'off' | 'warning' | 'error' => {
    const r = rules.get(rule)?.rule;
    return r?.offByDefault ? 'off' : r?.severity === 'warning' ? 'warning' : 'error';
  };
  // Every layer in its place (docs/formats.md, "Presets"): the presets beneath, the root's file on top.
  return severityResolver(
    config.layers.length > 0 ? config.layers.map(severityLayer) : [severityLayer(config)],
    defaults,
    (path) => layout.classify(path)?.kind ?? null,
  );
}

/** A configuration problem positioned in the configuration file. */
function problemAt(config: Config, path: readonly (string | number)[], message: string, key = false): string {
  const segments = path.map(String);
  const at: Pos = key ? config.locator.key(segments) : config.locator.value(segments);
  return configProblem(config.file ?? 'docgate.config', at, message);
}

/** The kinds of a configuration: the registry's (moved where `include` says), then the configured ones. */
function kindsOf(config: Config): AnyKind[] {
  const builtin = BUILTIN_KINDS.map((k) => {
    const own = config.kinds[k.name];
    return own?.include ? { ...k, include: own.include } : k;
  });
  const custom = Object.entries(config.kinds)
    .filter(([name]) => !BUILTIN_KINDS.some((k) => k.name === name))
    .map(([name, c]) => customKind(name, c));
  return [...builtin, ...custom];
}

/** `--ignore-pattern` globs, each compiled once to refuse a bad one (exit 2) before anything is linted. */
function checkIgnorePatterns(globs: readonly string[]): void {
  for (const g of globs) {
    try {
      compilePathGlob(g);
    } catch (e) {
      if (e instanceof GlobError)
        throw new ConfigError(`--ignore-pattern: Unexpected glob \`${g}\` (${e.message}), expected a root-relative glob such as \`processes/legacy-*.md\``);
      throw e;
    }
  }
}

/** Everything of a configuration that needs the registry or a compiler: globs, patterns, rule ids. */
function check(config: Config, rules: ReadonlyMap<string, RuleEntry>): void {
  if (config.file === null) return;
  const problems: string[] = [];
  // One bound over every glob of the configuration (see MAX_CONFIG_ALTERNATIVES), reported once at the
  // glob that passes it; the globs after it are not compiled (that would cost what the bound prevents).
  const budget: AlternativeBudget = { left: MAX_CONFIG_ALTERNATIVES };
  let over = false;
  const glob = (path: (string | number)[], g: string, include = false): void => {
    if (over) return;
    const bad = (why: string): void => {
      problems.push(problemAt(config, path, `Unexpected glob \`${g}\` (${why}), expected a root-relative glob such as \`processes/*.md\``));
    };
    try {
      const compiled = compilePathGlob(g, budget);
      if (include && compiled.namesGitFolder) bad('it names a path inside `.git`, which is never a document');
    } catch (e) {
      if (!(e instanceof GlobError)) throw e;
      over = e instanceof TooManyAlternatives;
      bad(e.message);
    }
  };
  const ruleIds = (path: (string | number)[], settings: Record<string, unknown>): void => {
    for (const id of Object.keys(settings)) {
      if (!rules.has(id) && !CUSTOM_SHARED_RULE_IDS.includes(id))
        problems.push(
          problemAt(config, [...path, id], `Unexpected rule id \`${id}\`, expected a rule id of docgate (see docs/rules.md) or of a configured kind`, true),
        );
    }
  };
  config.ignores.forEach((g, i) => glob(['ignores', i], g));
  for (const [name, k] of Object.entries(config.kinds)) {
    (k.include ?? []).forEach((g, i) => glob(['kinds', name, 'include', i], g, true));
    (k.deprecatedInclude?.globs ?? []).forEach((g, i) => glob(['kinds', name, 'deprecatedInclude', 'globs', i], g, true));
    if (k.rules !== undefined) ruleIds(['kinds', name, 'rules'], k.rules);
    if (k.fileName !== undefined) {
      try {
        linearPattern(k.fileName);
      } catch (e) {
        problems.push(
          problemAt(
            config,
            ['kinds', name, 'fileName'],
            `Unexpected pattern \`${k.fileName}\` (${(e as Error).message.split('\n')[0]}), expected a regular expression without back-references or lookaround`,
          ),
        );
      }
    }
  }
  ruleIds(['rules'], config.rules);
  config.overrides.forEach((o, i) => {
    o.files.forEach((g, j) => glob(['overrides', i, 'files', j], g));
    ruleIds(['overrides', i, 'rules'], o.rules);
  });
  if (/^(?:\/|[A-Za-z]:)|(?:^|[\\/])\.\.(?:[\\/]|$)/.test(config.schemas)) {
    problems.push(problemAt(config, ['schemas'], `Unexpected rule folder \`${config.schemas}\`, expected a folder inside the root, relative to it`));
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
}

/** The rule data each kind's parse and rules read, for one kind of a project. */
function kindData(
  kind: AnyKind,
  config: Config,
  root: string,
  rules: { schema: KindData['schema']; outline: unknown; headingTables: KindData['headingTables'] },
): KindData {
  const pattern = config.kinds[kind.name]?.fileName;
  const fileName =
    pattern !== undefined
      ? { pattern: linearPattern(pattern), expected: `a name matching \`${pattern}\`` }
      : kind.fileName
        ? { pattern: new RegExp(kind.fileName.pattern), expected: kind.fileName.expected }
        : null;
  return { schema: rules.schema, outline: rules.outline, headingTables: rules.headingTables, fileName, root };
}

/**
 * The project of `root`: its configuration read and checked, its rule files read (every call: a rule
 * file or configuration changed since is seen), and everything made from them cached by their content.
 */
export function loadProject(root: string, options: ProjectOptions = {}): Project {
  const config = loadConfig(root, { ...options, builtinKinds: BUILTIN_KINDS.map((k) => k.name) });
  const kinds = kindsOf(config);
  const ruleData = loadRuleData(root, kinds, config.schemas);
  const ignorePatterns = options.ignorePatterns ?? [];
  // Without ignore patterns the key is what it was before they existed (caches stay valid).
  const key = `${config.file ?? ''}\0${config.text}\0${ruleData.key}${ignorePatterns.length > 0 ? `\0${ignorePatterns.join('\0')}` : ''}`;
  const load = (): Suppressions => loadSuppressions(root, options.suppressions, options.cwd ?? process.cwd());
  const cached = projects.get(`${root}\0${key}`);
  const inputs = projectInputs(root, options, kinds, config.schemas);
  if (cached) {
    return withBaseline(cached, load, inputs, projectOptions(options));
  }

  const rules = rulesOf(kinds);
  check(config, rules);
  checkIgnorePatterns(ignorePatterns);
  const byName = new Map(kinds.map((k) => [k.name, k]));
  const data = new Map(kinds.map((k) => [k.name, kindData(k, config, root, ruleData.kinds.get(k.name)!)]));
  const layout = new Layout(
    kinds.map((k) => ({ kind: k.name, include: k.include, variants: k.variants })),
    [...config.ignores, ...ignorePatterns],
  );
  const project: ProjectRules = {
    root,
    config,
    kinds,
    layout,
    rules,
    ignorePatterns,
    kind: (name) => byName.get(name),
    data: (kind) => data.get(kind.name)!,
    severityFor: severities(config, rules, layout),
    key,
  };
  projects.set(`${root}\0${key}`, project);
  return withBaseline(project, load, inputs, projectOptions(options));
}

/** The paths a project of `root` is made from (see Project.inputs); docgate's own files never change under it. */
function projectInputs(root: string, options: ProjectOptions, kinds: readonly AnyKind[], folder = 'schemas'): string[] {
  const cwd = options.cwd ?? process.cwd();
  const configs = options.config !== undefined ? [resolve(cwd, options.config)] : CONFIG_CANDIDATES.map((n) => join(root, n));
  const rules = join(root, folder);
  const names = new Set(
    kinds.flatMap((k) => [k.ruleFiles.schema, k.ruleFiles.outline, ...(k.ruleFiles.dialects ?? [])].filter((n): n is string => n !== undefined)),
  );
  // Heading tables edited in place leave their folder's identity as it was: each is an input too.
  const patterns = kinds.flatMap((k) => (k.ruleFiles.headingTables ? [k.ruleFiles.headingTables] : []));
  for (const name of patterns.length > 0 ? listNames(rules) : []) if (patterns.some((p) => p.test(name))) names.add(name);
  return [...configs, rules, ...[...names].map((n) => join(rules, n)), suppressionsPath(root, options.suppressions, cwd)];
}

/** The names in a folder, none when it cannot be listed (then its own identity stands for it). */
function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The project as one call sees it: its baseline read on first use (a tool that refuses its arguments
 * reads nothing), its key extended by the baseline's text (without one, the key of the rest alone), and
 * the inputs and options of this call.
 */
function withBaseline(base: ProjectRules, load: () => Suppressions, inputs: readonly string[], options: ProjectOptions): Project {
  let suppressions: Suppressions | undefined;
  let key: string | undefined;
  let digest: string | undefined;
  const baseline = (): Suppressions => (suppressions ??= load());
  const keyOf = (): string => {
    const s = baseline();
    return (key ??= s.text === null ? base.key : `${base.key}\0${s.file}\0${s.text}`);
  };
  return {
    root: base.root,
    config: base.config,
    kinds: base.kinds,
    layout: base.layout,
    rules: base.rules,
    ignorePatterns: base.ignorePatterns,
    kind: base.kind,
    data: base.data,
    severityFor: base.severityFor,
    get suppressions() {
      return baseline();
    },
    get key() {
      return keyOf();
    },
    get hash() {
      return (digest ??= sha256(keyOf()));
    },
    inputs,
    options,
  };
}

/** The same project, but with other severities (a document analyzed with some rules off). */
export function withSeverities(project: Project, severityFor: (path: string) => SeverityOf): Project {
  return {
    root: project.root,
    config: project.config,
    kinds: project.kinds,
    layout: project.layout,
    rules: project.rules,
    ignorePatterns: project.ignorePatterns,
    kind: project.kind,
    data: project.data,
    severityFor,
    get suppressions() {
      return project.suppressions;
    },
    get key() {
      return project.key;
    },
    get hash() {
      return project.hash;
    },
    inputs: project.inputs,
    options: project.options,
  };
}
