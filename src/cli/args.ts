import { parseArgs } from 'node:util';
import { ConfigError, UsageError } from '../model/errors.js';

export interface ReportTarget {
  format: string;
  /** File to write to; undefined = stdout. */
  output?: string;
}

/** What both commands read a root with: `--root`, `--config`, `--suppressions-location`. */
interface RootArgs {
  root: string;
  config?: string;
  suppressionsLocation?: string;
}

export interface LintArgs extends RootArgs {
  command: 'lint';
  paths: string[];
  targets: ReportTarget[];
  cache: boolean;
  cacheLocation?: string;
  /** `--staged`: lint the git index, not the working tree (docs/decisions.md, "`docgate lint --staged`"). */
  staged: boolean;
  ignorePatterns: string[];
  quiet: boolean;
  /** `--max-warnings N`; -1 (the default) = no limit. */
  maxWarnings: number;
  /** `--suppress-all` (every rule: null) or `--suppress-rule R...`; undefined = record nothing. */
  suppress?: string[] | null;
  prune: boolean;
  printConfig?: string;
  /** `--fix` (write the fixes) or `--fix-dry-run` (report them in json as `output`); undefined = neither. */
  fix?: 'write' | 'dry-run';
  /** `--color` (true) or `--no-color` (false), the last one given; undefined = neither (the environment decides: src/cli/color.ts). */
  color?: boolean;
  /** Not a flag: `docgate init` prints only the summary of its first lint (and the rules it found). */
  summaryOnly?: boolean;
}

export interface McpArgs extends RootArgs {
  command: 'mcp';
  /** `--allow-writes`: serve the write tools too (docs/mcp.md, "Validated writes"). */
  allowWrites: boolean;
}

export interface LspArgs extends RootArgs {
  command: 'lsp';
  /** `--root` or `$DOCGATE_ROOT` was given: else the editor's workspace folder is the root. */
  rootGiven: boolean;
}

export interface InitArgs {
  command: 'init';
  root: string;
  /** `--dry-run`: print the configuration, write nothing. */
  dryRun: boolean;
}

export type CliArgs = LintArgs | McpArgs | LspArgs | InitArgs | { command: 'help'; usage: string } | { command: 'version' };

const LINT_OPTIONS = `  --root DIR                    repository root (default: $DOCGATE_ROOT, else the current folder)
  --config FILE                 the configuration (default: docgate.config.yaml or docgate.config.json at the root)
  --ignore-pattern GLOB         also ignore the documents GLOB matches (root-relative, as \`ignores\`); may be repeated
  --format FORMAT               stylish (default), json, github, sarif or junit; may be repeated (one on stdout)
  --output FILE                 write the report of the --format before it to FILE (the terminal gets the stylish report)
  --quiet                       report errors only: warnings are neither printed nor counted
  --max-warnings N              exit 1 when there are more than N warnings (default: -1, no limit)
  --staged                      lint the snapshot about to be committed (the git index), and the files it affects
  --cache                       skip files unchanged since the last run (content hash, rule files, configuration, docgate version)
  --cache-location FILE         where the cache lives (default: <root>/.docgatecache)
  --suppress-all                record every error found in the suppressions file (the baseline); exit 0
  --suppress-rule RULE          record the errors of RULE only; may be repeated
  --prune-suppressions          remove the suppressions that no longer occur from the suppressions file
  --suppressions-location FILE  the suppressions file (default: <root>/docgate-suppressions.json)
  --print-config PATH           print the configuration in effect for PATH as JSON; lint nothing
  --fix                         apply every fix and write the files changed, atomically; report what remains
  --fix-dry-run                 compute the fixes, write nothing; stylish prints each file's diff, json adds its fixed text as \`output\`
  --color, --no-color           colours in the stylish report on stdout, or none (default: on a terminal; see Colours)
  -h, --help                    this help`;

const MCP_OPTIONS = `  --root DIR                    repository root (default: $DOCGATE_ROOT, else the current folder)
  --config FILE                 the configuration (default: docgate.config.yaml or docgate.config.json at the root)
  --suppressions-location FILE  the suppressions file (default: <root>/docgate-suppressions.json)
  --allow-writes                also serve the write tools: create, update and edit a document when its new text passes
  -h, --help                    this help`;

const LSP_OPTIONS = `  --root DIR                    repository root (default: $DOCGATE_ROOT, else the editor's workspace folder)
  --config FILE                 the configuration (default: docgate.config.yaml or docgate.config.json at the root)
  --suppressions-location FILE  the suppressions file (default: <root>/docgate-suppressions.json)
  --stdio                       talk on stdin and stdout (the only way it talks; accepted for editors that pass it)
  -h, --help                    this help`;

const INIT_OPTIONS = `  --root DIR                    repository root (default: $DOCGATE_ROOT, else the current folder)
  --dry-run                     print the configuration init would write, and lint with it; write nothing
  -h, --help                    this help`;

const EXIT_CODES = 'Exit codes: 0 no errors, 1 errors found (or more warnings than --max-warnings), 2 usage or configuration error.';

export const LINT_USAGE = `Usage: docgate lint [paths...] [options]

Lints the documents of a repository: all of them, or the files and folders named.

Options:
${LINT_OPTIONS}

Colours: --color or --no-color decides; else FORCE_COLOR (0 or false: none; 1, 2, 3, true or empty:
colours even when stdout is not a terminal); else NO_COLOR (any value but empty: none); else colours
when stdout is a terminal whose TERM is not dumb. A report written with --output never has colours.

${EXIT_CODES}`;

export const MCP_USAGE = `Usage: docgate mcp [options]

Serves the documents of a repository to AI agents: the Model Context Protocol on stdio.

Options:
${MCP_OPTIONS}`;

export const LSP_USAGE = `Usage: docgate lsp [options]

Checks the documents open in an editor as you type: the Language Server Protocol on stdio (see docs/editors.md).

Options:
${LSP_OPTIONS}`;

export const INIT_USAGE = `Usage: docgate init [options]

Finds the formats a repository keeps (agent skills, Claude Code, Copilot and Cursor files, AGENTS.md,
docgate's own kinds), writes a docgate.config.yaml with the presets that fit (never over an existing
configuration), and prints the first lint's summary.

Options:
${INIT_OPTIONS}`;

export const USAGE = `Usage:
  docgate init [options]
  docgate lint [paths...] [options]
  docgate mcp [options]
  docgate lsp [options]
  docgate --help | --version

lint options:
${LINT_OPTIONS}

mcp options:
${MCP_OPTIONS}

lsp options:
${LSP_OPTIONS}

init options:
${INIT_OPTIONS}

${EXIT_CODES}`;

const FORMATS = ['stylish', 'json', 'github', 'sarif', 'junit'];

const ROOT_OPTIONS = {
  root: { type: 'string' },
  config: { type: 'string' },
  'suppressions-location': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const MCP_PARSE_OPTIONS = { ...ROOT_OPTIONS, 'allow-writes': { type: 'boolean' } } as const;

const INIT_PARSE_OPTIONS = {
  root: { type: 'string' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const LINT_PARSE_OPTIONS = {
  ...ROOT_OPTIONS,
  format: { type: 'string', multiple: true },
  output: { type: 'string', multiple: true },
  cache: { type: 'boolean' },
  staged: { type: 'boolean' },
  'cache-location': { type: 'string' },
  'ignore-pattern': { type: 'string', multiple: true },
  quiet: { type: 'boolean' },
  'max-warnings': { type: 'string' },
  'suppress-all': { type: 'boolean' },
  'suppress-rule': { type: 'string', multiple: true },
  'prune-suppressions': { type: 'boolean' },
  'print-config': { type: 'string' },
  fix: { type: 'boolean' },
  'fix-dry-run': { type: 'boolean' },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
} as const;

type OptionSpecs = Readonly<Record<string, { readonly type: 'string' | 'boolean' }>>;

/**
 * Node's parser, strict; what it refuses is said in docgate's words, one line with the command's
 * `--help` (node's own text speaks to a programmer: "To specify a positional argument starting with a
 * '-', place it at the end…").
 */
function parseCommand(command: string, args: readonly string[], options: OptionSpecs, allowPositionals: boolean): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals, tokens: true });
  } catch {
    throw new ConfigError(`${refusal(args, options, allowPositionals)} (see docgate ${command} --help)`);
  }
}

/** An argument as printed: its control characters as `\x1b`-style escapes (a terminal would act on them). */
function shown(arg: string): string {
  return arg.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** What the strict parser refused: the first argument at fault, found in the lenient parser's tokens. */
function refusal(args: readonly string[], options: OptionSpecs, allowPositionals: boolean): string {
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  for (const t of tokens) {
    if (t.kind === 'positional' && !allowPositionals) return `unexpected argument '${shown(t.value)}'`;
    if (t.kind !== 'option') continue;
    const type = Object.hasOwn(options, t.name) ? options[t.name]!.type : undefined;
    if (type === undefined) return `unknown option '${shown(t.rawName)}'`;
    // A value taken from the next argument that looks like an option (`--root --cache`) is one forgotten.
    const missing = t.value === undefined || (!t.inlineValue && t.value.length > 1 && t.value.startsWith('-'));
    if (type === 'string' && missing) return `option '${t.rawName}' needs a value`;
    if (type === 'boolean' && t.value !== undefined) return `option '${t.rawName}' takes no value`;
  }
  return 'cannot read the command line';
}

/** A string option's value, refused when given empty (`--config ''`): a usage error naming what it needs. */
function nonEmpty(value: unknown, flag: string, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (value === '') throw new ConfigError(`${flag} needs ${what}`);
  return value as string;
}

/**
 * Each `--output` belongs to the `--format` right before it. At most one report goes to stdout: two
 * reports there would run together, and an `--output` with no `--format` before it would silently
 * write stylish (usage errors, exit 2).
 */
function reportTargets(tokens: NonNullable<ReturnType<typeof parseArgs>['tokens']>): ReportTarget[] {
  const targets: ReportTarget[] = [];
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    if (t.name === 'format') {
      const format = t.value ?? '';
      if (!FORMATS.includes(format)) throw new UsageError(`unknown format '${format}' (expected one of: ${FORMATS.join(', ')})`);
      targets.push({ format });
    } else if (t.name === 'output') {
      const last = targets[targets.length - 1];
      if (!t.value) throw new ConfigError('--output needs a file');
      if (!last || last.output !== undefined)
        throw new ConfigError(`--output ${t.value} has no --format of its own before it (write --format FORMAT --output ${t.value})`);
      last.output = t.value;
    }
  }
  const toStdout = targets.filter((t) => t.output === undefined);
  if (toStdout.length > 1) {
    throw new ConfigError(
      `${toStdout.map((t) => `--format ${t.format}`).join(' and ')} would ${toStdout.length === 2 ? 'both' : 'all'} write to stdout; give all but one of them an --output FILE`,
    );
  }
  if (targets.length === 0) targets.push({ format: 'stylish' });
  return targets;
}

/** `--max-warnings N`: a whole number, -1 (ESLint's default) meaning no limit. */
function maxWarnings(value: unknown): number {
  if (value === undefined) return -1;
  const text = String(value);
  if (!/^(?:-1|\d{1,15})$/.test(text)) throw new ConfigError(`--max-warnings needs a whole number of warnings (or -1 for no limit), got '${text}'`);
  return Number(text);
}

/** ESLint's combinations of the baseline flags that contradict each other. */
function checkBaselineFlags(all: boolean, rules: readonly string[] | undefined, prune: boolean): void {
  if (all && rules) throw new ConfigError('--suppress-all and --suppress-rule cannot be used together');
  if (all && prune) throw new ConfigError('--suppress-all and --prune-suppressions cannot be used together');
  if (rules && prune) throw new ConfigError('--suppress-rule and --prune-suppressions cannot be used together');
}

/** `docgate init [--root DIR] [--dry-run]`. */
function parseInit(rest: readonly string[], env: NodeJS.ProcessEnv): CliArgs {
  const values = parseCommand('init', rest, INIT_PARSE_OPTIONS, false).values as { root?: string; 'dry-run'?: boolean; help?: boolean };
  if (values.help === true) return { command: 'help', usage: INIT_USAGE };
  const root = values.root ?? env.DOCGATE_ROOT ?? '.';
  if (root === '') throw new ConfigError('--root needs a folder');
  return { command: 'init', root, dryRun: values['dry-run'] === true };
}

const LSP_PARSE_OPTIONS = { ...ROOT_OPTIONS, stdio: { type: 'boolean' } } as const;

/** `docgate lsp [--root DIR] [--config FILE] [--suppressions-location FILE] [--stdio]`. */
function parseLsp(rest: readonly string[], env: NodeJS.ProcessEnv): CliArgs {
  let values: { root?: string; config?: string; 'suppressions-location'?: string; help?: boolean };
  try {
    values = parseArgs({ args: [...rest], strict: true, options: LSP_PARSE_OPTIONS }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help === true) return { command: 'help', usage: LSP_USAGE };
  const named = values.root ?? env.DOCGATE_ROOT;
  if (named === '') throw new ConfigError('--root needs a folder');
  const args: LspArgs = { command: 'lsp', root: named ?? '.', rootGiven: named !== undefined };
  const config = nonEmpty(values.config, '--config', 'a file');
  if (config !== undefined) args.config = config;
  const location = nonEmpty(values['suppressions-location'], '--suppressions-location', 'a file');
  if (location !== undefined) args.suppressionsLocation = location;
  return args;
}

/** Parses the command line; a usage problem is a ConfigError (exit 2). */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliArgs {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { command: 'help', usage: USAGE };
  if (command === '--version' || command === '-v') return { command: 'version' };
  if (command === 'init') return parseInit(rest, env);
  if (command === 'lsp') return parseLsp(rest, env);
  if (command !== 'lint' && command !== 'mcp') throw new UsageError(`unknown command '${command}'`);
  const parsed = parseCommand(command, rest, command === 'lint' ? LINT_PARSE_OPTIONS : MCP_PARSE_OPTIONS, command === 'lint');
  const v = parsed.values;
  if (v.help === true) return { command: 'help', usage: command === 'lint' ? LINT_USAGE : MCP_USAGE };
  const root = (v.root as string | undefined) ?? env.DOCGATE_ROOT ?? '.';
  if (root === '') throw new ConfigError('--root needs a folder');
  const base: RootArgs = { root };
  const config = nonEmpty(v.config, '--config', 'a file');
  if (config !== undefined) base.config = config;
  const location = nonEmpty(v['suppressions-location'], '--suppressions-location', 'a file');
  if (location !== undefined) base.suppressionsLocation = location;
  if (command === 'mcp') return { command, ...base, allowWrites: v['allow-writes'] === true };

  const suppressRules = v['suppress-rule'] as string[] | undefined;
  const prune = v['prune-suppressions'] === true;
  checkBaselineFlags(v['suppress-all'] === true, suppressRules, prune);
  for (const r of suppressRules ?? []) if (r === '') throw new ConfigError('--suppress-rule needs a rule id');
  const ignorePatterns = (v['ignore-pattern'] as string[] | undefined) ?? [];
  if (ignorePatterns.includes('')) throw new ConfigError('--ignore-pattern needs a glob');
  const args: LintArgs = {
    command,
    ...base,
    paths: parsed.positionals,
    targets: reportTargets(parsed.tokens ?? []),
    cache: v.cache === true,
    staged: v.staged === true,
    ignorePatterns,
    quiet: v.quiet === true,
    maxWarnings: maxWarnings(v['max-warnings']),
    prune,
  };
  // The last of `--color` and `--no-color` wins, as with ESLint's flags.
  const color = (parsed.tokens ?? []).findLast((t) => t.kind === 'option' && (t.name === 'color' || t.name === 'no-color'));
  if (color?.kind === 'option') args.color = color.name === 'color';
  if (v['suppress-all'] === true) args.suppress = null;
  else if (suppressRules) args.suppress = suppressRules;
  const cacheLocation = nonEmpty(v['cache-location'], '--cache-location', 'a file');
  if (cacheLocation !== undefined) args.cacheLocation = cacheLocation;
  if (args.staged && args.paths.length > 0) {
    throw new UsageError(
      `--staged lints the whole snapshot being committed and takes no paths (got ${args.paths.join(' ')}); run it from .husky/pre-commit, not from lint-staged`,
    );
  }
  if (v.fix === true && v['fix-dry-run'] === true) throw new ConfigError('--fix and --fix-dry-run cannot be used together');
  if (v.fix === true || v['fix-dry-run'] === true) {
    const flag = v.fix === true ? '--fix' : '--fix-dry-run';
    // The staged snapshot lives in git's index: fixing it (and the work tree to match) is out of scope.
    if (args.staged)
      throw new ConfigError(
        `${flag} cannot be used with --staged: it fixes files in the work tree, not the snapshot in git's index; run docgate lint --fix on the files, then stage them again`,
      );
    args.fix = v.fix === true ? 'write' : 'dry-run';
  }
  const printConfig = nonEmpty(v['print-config'], '--print-config', 'a path');
  if (printConfig !== undefined) {
    if (args.paths.length > 0) throw new ConfigError(`--print-config takes one path, and no paths to lint besides (got ${args.paths.join(' ')})`);
    if (args.fix !== undefined)
      throw new ConfigError(`--print-config lints nothing, so it cannot be used with --${args.fix === 'write' ? 'fix' : 'fix-dry-run'}`);
    args.printConfig = printConfig;
  }
  return args;
}
