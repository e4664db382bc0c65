import { parseArgs } from 'node:util';
import { ConfigError } from '../core/schemas.js';

export interface ReportTarget {
  format: string;
  /** File to write to; undefined = stdout. */
  output?: string;
}

export interface LintArgs {
  command: 'lint';
  paths: string[];
  root: string;
  targets: ReportTarget[];
  cache: boolean;
  cacheLocation?: string;
}

export interface McpArgs {
  command: 'mcp';
  root: string;
}

export type CliArgs = LintArgs | McpArgs | { command: 'help' } | { command: 'version' };

export const USAGE = `Usage:
  docgate lint [paths...] [--root DIR] [--format FORMAT [--output FILE]]... [--cache [--cache-location FILE]]
  docgate mcp [--root DIR]
  docgate --help | --version

lint options:
  --root DIR              repository root (default: $DOCGATE_ROOT, else the current folder)
  --format FORMAT         stylish (default), json, github, sarif or junit; may be repeated
  --output FILE           write the preceding --format's report to FILE (the terminal gets the stylish summary)
  --cache                 skip files unchanged since the last run (content hash, rule files, docgate version)
  --cache-location FILE   where the cache lives (default: <root>/.docgatecache)

Exit codes: 0 no failures, 1 failures found, 2 usage or configuration error.`;

const FORMATS = ['stylish', 'json', 'github', 'sarif', 'junit'];

/** Parses the command line; a usage problem is a ConfigError (exit 2). */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliArgs {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  if (command === '--version' || command === '-v') return { command: 'version' };
  if (command !== 'lint' && command !== 'mcp') throw new ConfigError(`unknown command '${command}'`);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...rest],
      allowPositionals: command === 'lint',
      strict: true,
      tokens: true,
      options:
        command === 'lint'
          ? {
              root: { type: 'string' },
              format: { type: 'string', multiple: true },
              output: { type: 'string', multiple: true },
              cache: { type: 'boolean' },
              'cache-location': { type: 'string' },
            }
          : { root: { type: 'string' } },
    });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const root = (parsed.values.root as string | undefined) ?? env.DOCGATE_ROOT ?? '.';
  if (root === '') throw new ConfigError('--root needs a folder');
  if (command === 'mcp') return { command, root };

  // Each --output belongs to the --format before it; a lone --output applies to the default format.
  const targets: ReportTarget[] = [];
  for (const t of parsed.tokens ?? []) {
    if (t.kind !== 'option') continue;
    if (t.name === 'format') {
      const format = t.value ?? '';
      if (!FORMATS.includes(format)) throw new ConfigError(`unknown format '${format}' (expected one of: ${FORMATS.join(', ')})`);
      targets.push({ format });
    } else if (t.name === 'output') {
      const last = targets[targets.length - 1];
      if (!t.value) throw new ConfigError('--output needs a file');
      if (last && last.output === undefined) last.output = t.value;
      else targets.push({ format: 'stylish', output: t.value });
    }
  }
  if (targets.length === 0) targets.push({ format: 'stylish' });
  const args: LintArgs = { command, paths: parsed.positionals, root, targets, cache: parsed.values.cache === true };
  const location = parsed.values['cache-location'];
  if (typeof location === 'string') {
    if (location === '') throw new ConfigError('--cache-location needs a file');
    args.cacheLocation = location;
  }
  return args;
}
