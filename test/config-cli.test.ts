import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processKind } from '../src/kinds/process/kind.js';
import { REPO, runCli, tempRoot } from './helpers.js';

/**
 * The configuration and the flags a team adopting docgate meets first (SPEC §8), through the CLI as a
 * child process: every test asserts the exit code and the exact output.
 */

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A root of its own holding `files` (path → text). */
function root(files: Record<string, string>): string {
  return tempRoot('docgate-config-', files, roots);
}

const VALID = '---\nname: Valid\n---\n\n# Valid\n\nBody.\n';
/** One unknown key: an error of `unknown-key` at 3:1. */
const OWNER = '---\nname: Owned\nowner: ops\n---\n\n# Owned\n\nBody.\n';
/** An empty body: an error of `process-empty-body` at 4:1. */
const EMPTY = '---\nname: Empty\n---\n';

const OWNER_LINE = '3:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]';
const OWNER_WARNING = '3:1 warning Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]';
const EMPTY_LINE = '4:1 Unexpected empty body, expected markdown content after the frontmatter [process-empty-body]';

const KINDS = 'template: templates/power/*.txt; framework: frameworks/*.md; process: processes/*.md; sysrs: docs/sysrs/*.md, docs/sysrs/<lang>/*.md';

function lines(...l: string[]): string {
  return `${l.join('\n')}\n`;
}

describe('the configuration file', () => {
  const warnOwner = { 'processes/valid.md': VALID, 'processes/owned.md': OWNER };
  const expectedWarn = lines('processes/owned.md', `  ${OWNER_WARNING}`, '', '1 problem (0 errors, 1 warning) in 1 file (2 files checked)');

  it('reads docgate.config.yaml: a rule set to warn passes with its warning printed', () => {
    const r = runCli(['lint'], { cwd: root({ ...warnOwner, 'docgate.config.yaml': 'rules:\n  unknown-key: warn\n' }) });
    expect(r).toEqual({ code: 0, stdout: expectedWarn, stderr: '' });
  });

  it('reads docgate.config.json the same way', () => {
    const r = runCli(['lint'], { cwd: root({ ...warnOwner, 'docgate.config.json': '{ "rules": { "unknown-key": "warn" } }\n' }) });
    expect(r).toEqual({ code: 0, stdout: expectedWarn, stderr: '' });
  });

  it('reads the file --config names instead of the one at the root', () => {
    const dir = root({ ...warnOwner, 'docgate.config.yaml': 'rules:\n  unknown-key: off\n', 'ci/strict.yaml': 'rules:\n  unknown-key: warn\n' });
    expect(runCli(['lint', '--config', 'ci/strict.yaml'], { cwd: dir })).toEqual({ code: 0, stdout: expectedWarn, stderr: '' });
    expect(runCli(['lint'], { cwd: dir })).toEqual({ code: 0, stdout: lines('0 problems in 0 files (2 files checked)'), stderr: '' });
  });

  it('refuses both files at the root (exit 2)', () => {
    const r = runCli(['lint'], { cwd: root({ ...warnOwner, 'docgate.config.yaml': 'rules: {}\n', 'docgate.config.json': '{}\n' }) });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'docgate: both docgate.config.yaml and docgate.config.json exist at the root; keep one\n' });
  });

  it('refuses a .js configuration without running it, at the root or named by --config', () => {
    const marker = join(tmpdir(), `docgate-ran-${process.pid}`);
    const code = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); module.exports = {};\n`;
    const dir = root({ ...warnOwner, 'docgate.config.js': code, 'other.config.cjs': code });
    expect(runCli(['lint'], { cwd: dir })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: docgate.config.js: a configuration is data (YAML or JSON), never code; docgate does not run it (use docgate.config.yaml)\n',
    });
    expect(runCli(['lint', '--config', 'other.config.cjs'], { cwd: dir })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: other.config.cjs: a configuration is data (YAML or JSON), never code; docgate does not run it\n',
    });
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses an unknown rule id, positioned at its key (exit 2)', () => {
    const r = runCli(['lint'], { cwd: root({ ...warnOwner, 'docgate.config.yaml': 'rules:\n  unknown-key: warn\n  no-such-rule: off\n' }) });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: docgate.config.yaml:3:3 Unexpected rule id `no-such-rule`, expected a rule id of docgate (see docs/rules.md) or of a configured kind\n',
    });
  });

  it('refuses YAML that does not parse, positioned in the file (exit 2)', () => {
    const r = runCli(['lint'], { cwd: root({ ...warnOwner, 'docgate.config.yaml': 'rules:\n  unknown-key: warn\nignores: [\n' }) });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: docgate.config.yaml:3:11 Unexpected YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a ]\n',
    });
  });

  it('moves a kind with include globs: the old folder is no longer linted, the new one is', () => {
    const dir = root({
      'processes/owned.md': OWNER,
      'handbook/empty.md': EMPTY,
      'docgate.config.yaml': 'kinds:\n  process:\n    include: ["handbook/*.md"]\n',
    });
    expect(runCli(['lint'], { cwd: dir })).toEqual({
      code: 1,
      stdout: lines('handbook/empty.md', `  ${EMPTY_LINE}`, '', '1 problem in 1 file (1 file checked)'),
      stderr: '',
    });
  });

  it('never lints what `ignores` matches', () => {
    const dir = root({ ...warnOwner, 'processes/legacy-empty.md': EMPTY, 'docgate.config.yaml': 'ignores: ["processes/legacy-*.md"]\n' });
    expect(runCli(['lint'], { cwd: dir })).toEqual({
      code: 1,
      stdout: lines('processes/owned.md', `  ${OWNER_LINE}`, '', '1 problem in 1 file (2 files checked)'),
      stderr: '',
    });
  });
});

describe('named paths that select no document', () => {
  const files = {
    'processes/valid.md': VALID,
    'processes/owned.md': OWNER,
    'processes/legacy-empty.md': EMPTY,
    'prompts/x.txt': 'text\n',
    'notes/todo.md': '# To do\n',
  };

  it('warns on stderr for an ignored path and for a file of no kind, and lints the rest', () => {
    const dir = root({ ...files, 'docgate.config.yaml': 'ignores: ["processes/legacy-*.md"]\n' });
    const r = runCli(['lint', 'processes/legacy-empty.md', 'prompts/x.txt', 'processes/owned.md'], { cwd: dir });
    expect(r).toEqual({
      code: 1,
      stdout: lines('processes/owned.md', `  ${OWNER_LINE}`, '', '1 problem in 1 file (1 file checked)'),
      stderr: lines(
        'docgate: warning: processes/legacy-empty.md is ignored by `processes/legacy-*.md` (ignores in docgate.config.yaml)',
        `docgate: warning: prompts/x.txt is not a document of any kind (${KINDS})`,
      ),
    });
  });

  it('takes the exit code from the rest: only skipped paths is exit 0 with nothing checked', () => {
    const dir = root({ ...files, 'docgate.config.yaml': 'ignores: ["processes/legacy-*.md"]\n' });
    expect(runCli(['lint', 'processes/legacy-empty.md'], { cwd: dir })).toEqual({
      code: 0,
      stdout: lines('0 problems in 0 files (0 files checked)'),
      stderr: lines('docgate: warning: processes/legacy-empty.md is ignored by `processes/legacy-*.md` (ignores in docgate.config.yaml)'),
    });
  });

  it('warns for a folder that holds no documents', () => {
    const r = runCli(['lint', 'notes', 'processes/valid.md'], { cwd: root(files) });
    expect(r).toEqual({
      code: 0,
      stdout: lines('0 problems in 0 files (1 file checked)'),
      stderr: lines(`docgate: warning: notes holds no documents of any kind (${KINDS})`),
    });
  });

  it('--ignore-pattern adds to the ignores (repeatable), and says so for a named path', () => {
    const dir = root(files);
    expect(runCli(['lint', '--ignore-pattern', 'processes/legacy-*.md', '--ignore-pattern', 'processes/owned.md'], { cwd: dir })).toEqual({
      code: 0,
      stdout: lines('0 problems in 0 files (1 file checked)'),
      stderr: '',
    });
    expect(runCli(['lint', '--ignore-pattern', 'processes/o*', 'processes/owned.md'], { cwd: dir })).toEqual({
      code: 0,
      stdout: lines('0 problems in 0 files (0 files checked)'),
      stderr: lines('docgate: warning: processes/owned.md is ignored by `processes/o*` (--ignore-pattern)'),
    });
  });

  it('refuses an --ignore-pattern that is no root-relative glob (exit 2)', () => {
    expect(runCli(['lint', '--ignore-pattern', '../x/*.md'], { cwd: root(files) })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'docgate: --ignore-pattern: Unexpected glob `../x/*.md` (it climbs out of the root with `..`), expected a root-relative glob such as `processes/legacy-*.md`\n',
    });
  });
});

describe('--max-warnings and --quiet', () => {
  const files = { 'processes/valid.md': VALID, 'processes/owned.md': OWNER, 'docgate.config.yaml': 'rules:\n  unknown-key: warn\n' };
  const report = lines('processes/owned.md', `  ${OWNER_WARNING}`, '', '1 problem (0 errors, 1 warning) in 1 file (2 files checked)');

  it("--max-warnings 0 fails a run with one warning, with ESLint's message; --max-warnings 1 passes it", () => {
    const dir = root(files);
    expect(runCli(['lint', '--max-warnings', '0'], { cwd: dir })).toEqual({
      code: 1,
      stdout: report,
      stderr: 'docgate found too many warnings (maximum: 0).\n',
    });
    expect(runCli(['lint', '--max-warnings', '1'], { cwd: dir })).toEqual({ code: 0, stdout: report, stderr: '' });
    expect(runCli(['lint', '--max-warnings', 'some'], { cwd: dir })).toEqual({
      code: 2,
      stdout: '',
      stderr: "docgate: --max-warnings needs a whole number of warnings (or -1 for no limit), got 'some'\n",
    });
  });

  it('--max-warnings does not add its message when errors fail the run anyway', () => {
    const dir = root({ ...files, 'processes/empty.md': EMPTY });
    expect(runCli(['lint', '--max-warnings', '0'], { cwd: dir })).toEqual({
      code: 1,
      stdout: lines(
        'processes/empty.md',
        `  ${EMPTY_LINE}`,
        '',
        'processes/owned.md',
        `  ${OWNER_WARNING}`,
        '',
        '2 problems (1 error, 1 warning) in 2 files (3 files checked)',
      ),
      stderr: '',
    });
  });

  it('--quiet neither prints nor counts warnings (not even for --max-warnings)', () => {
    const dir = root({ ...files, 'processes/empty.md': '---\nname: Empty\nowner: ops\n---\n' });
    expect(runCli(['lint', '--quiet', '--max-warnings', '0'], { cwd: dir })).toEqual({
      code: 1,
      stdout: lines(
        'processes/empty.md',
        '  5:1 Unexpected empty body, expected markdown content after the frontmatter [process-empty-body]',
        '',
        '1 problem in 1 file (3 files checked)',
      ),
      stderr: '',
    });
    const json = runCli(['lint', '--quiet', '--format', 'json'], { cwd: dir });
    const out = JSON.parse(json.stdout) as {
      results: { error: string }[];
      warnings: unknown[];
      errorCount: number;
      warningCount: number;
      problemCount: number;
    };
    expect(out.results.map((x) => x.error)).toEqual(['5:1 Unexpected empty body, expected markdown content after the frontmatter [process-empty-body]']);
    expect([out.warnings, out.errorCount, out.warningCount, out.problemCount]).toEqual([[], 1, 0, 1]);
    expect(runCli(['lint', '--quiet'], { cwd: root(files) })).toEqual({ code: 0, stdout: lines('0 problems in 0 files (2 files checked)'), stderr: '' });
  });
});

describe('--print-config', () => {
  const config = [
    'ignores: ["processes/legacy-*.md"]',
    'rules:',
    '  unknown-key: warn',
    'overrides:',
    '  - files: ["processes/draft-*.md"]',
    '    rules: { process-empty-body: off, unknown-key: error }',
    '',
  ].join('\n');
  /** Every rule of the process kind at its default level (`error` or `warn`), but those given. */
  function processRules(levels: Record<string, string>): Record<string, string> {
    const rules = [...processKind.rules, ...processKind.crossFile].sort((a, b) => (a.id < b.id ? -1 : 1));
    return Object.fromEntries(rules.map((r) => [r.id, levels[r.id] ?? (r.severity === 'warning' ? 'warn' : 'error')]));
  }

  it('prints the kind, the configuration, the rule files and every rule with its level for a path (exit 0)', () => {
    const dir = root({ 'docgate.config.yaml': config, 'schemas/process-frontmatter.schema.json': '{ "type": "object" }\n' });
    const r = runCli(['lint', '--print-config', 'processes/draft-x.md'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `${JSON.stringify(
        {
          path: 'processes/draft-x.md',
          kind: 'process',
          ignored: false,
          config: 'docgate.config.yaml',
          ruleFiles: { schema: 'schemas/process-frontmatter.schema.json' },
          rules: processRules({ 'process-empty-body': 'off' }),
        },
        null,
        2,
      )}\n`,
    );
  });

  it("says when a path is ignored, names docgate's own rule files, and has no kind for other files", () => {
    const dir = root({ 'docgate.config.yaml': config });
    const ignored = runCli(['lint', '--root', dir, '--print-config', join(dir, 'processes', 'legacy-a.md')], { cwd: REPO });
    expect(ignored.code).toBe(0);
    expect(JSON.parse(ignored.stdout)).toEqual({
      path: 'processes/legacy-a.md',
      kind: 'process',
      ignored: true,
      config: 'docgate.config.yaml',
      ruleFiles: { schema: join(REPO, 'schemas', 'process-frontmatter.schema.json') },
      rules: processRules({ 'unknown-key': 'warn' }),
    });
    const sysrs = JSON.parse(runCli(['lint', '--print-config', 'docs/sysrs/de/x.md'], { cwd: dir }).stdout) as { kind: string; ruleFiles: unknown };
    expect(sysrs.kind).toBe('sysrs');
    expect(sysrs.ruleFiles).toEqual({
      schema: join(REPO, 'schemas', 'sysrs-frontmatter.schema.json'),
      outline: join(REPO, 'schemas', 'sysrs-outline.json'),
      headingTables: { de: join(REPO, 'schemas', 'sysrs-headings.de.json') },
    });
    expect(runCli(['lint', '--print-config', 'notes.txt'], { cwd: dir })).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ path: 'notes.txt', kind: null, ignored: false, config: 'docgate.config.yaml', ruleFiles: {}, rules: {} }, null, 2)}\n`,
      stderr: '',
    });
  });

  it('refuses a path outside the root (exit 2)', () => {
    const dir = root({ 'docgate.config.yaml': config });
    expect(runCli(['lint', '--root', dir, '--print-config', join(REPO, 'README.md')])).toEqual({
      code: 2,
      stdout: '',
      stderr: `docgate: ${join(REPO, 'README.md')} is outside the root ${dir}\n`,
    });
  });
});

describe('help and usage errors', () => {
  it('lint --help and mcp --help print their usage (exit 0)', () => {
    const lint = runCli(['lint', '--help']);
    expect([lint.code, lint.stderr]).toEqual([0, '']);
    expect(lint.stdout.split('\n')[0]).toBe('Usage: docgate lint [paths...] [options]');
    for (const flag of [
      '--root',
      '--config',
      '--ignore-pattern',
      '--format',
      '--output',
      '--quiet',
      '--max-warnings',
      '--cache',
      '--cache-location',
      '--suppress-all',
      '--suppress-rule',
      '--prune-suppressions',
      '--suppressions-location',
      '--print-config',
    ]) {
      expect(lint.stdout).toContain(`\n  ${flag} `);
    }
    const mcp = runCli(['mcp', '-h']);
    expect(mcp).toEqual({
      code: 0,
      stdout: lines(
        'Usage: docgate mcp [options]',
        '',
        'Serves the documents of a repository to AI agents: the Model Context Protocol on stdio.',
        '',
        'Options:',
        '  --root DIR                    repository root (default: $DOCGATE_ROOT, else the current folder)',
        '  --config FILE                 the configuration (default: docgate.config.yaml or docgate.config.json at the root)',
        '  --suppressions-location FILE  the suppressions file (default: <root>/docgate-suppressions.json)',
        '  --allow-writes                also serve the write tools: create, update and edit a document when its new text passes',
        '  -h, --help                    this help',
      ),
      stderr: '',
    });
  });

  it('refuses two reports on stdout, and an --output with no --format before it (exit 2)', () => {
    expect(runCli(['lint', '--format', 'json', '--format', 'junit'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: --format json and --format junit would both write to stdout; give all but one of them an --output FILE\n',
    });
    expect(runCli(['lint', '--output', 'report.json'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: --output report.json has no --format of its own before it (write --format FORMAT --output report.json)\n',
    });
    expect(runCli(['lint', '--format', 'json', '--output', 'a.json', '--output', 'b.json'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: --output b.json has no --format of its own before it (write --format FORMAT --output b.json)\n',
    });
  });
});
