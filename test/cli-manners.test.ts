import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wantsColor } from '../src/cli/color.js';
import { RULES_DOC_URL } from '../src/io/version.js';
import { BIN, REPO, fixture, tempRoot } from './helpers.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The CLI through pipes (never a terminal), with exactly the colour variables given. */
function run(args: string[], env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const base = { ...process.env };
  for (const k of ['FORCE_COLOR', 'NO_COLOR', 'DOCGATE_ROOT', 'GITHUB_STEP_SUMMARY']) delete base[k];
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, env: { ...base, ...env }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ESC = '\u001b';
const STATUS = fixture('rules', 'sysrs-status');
const STATUS_LINE = '4:9 Unexpected `status` value `drafty`, expected one of: `draft`, `review`, `approved`, `active`, `retired` [invalid-value]';
const STATUS_PLAIN = `docs/sysrs/fixture.md\n  ${STATUS_LINE}\n\n1 problem in 1 file (1 file checked)\n`;
/** The same report with colours: bold path, dim position and rule id (a hyperlink to rules.md), a red summary. */
const STATUS_COLOURED = `${ESC}[1mdocs/sysrs/fixture.md${ESC}[0m\n  ${ESC}[2m4:9${ESC}[0m ${STATUS_LINE.slice(4, -' [invalid-value]'.length)} ${ESC}[2m[${ESC}]8;;${RULES_DOC_URL}#invalid-value${ESC}\\invalid-value${ESC}]8;;${ESC}\\]${ESC}[0m\n\n${ESC}[31m1 problem in 1 file (1 file checked)${ESC}[0m\n`;

const SHAPE = fixture('json-shape');
const FIXABLE_LINE = '3:1 Unexpected key `Description`, expected one of: `name`, `description` [unknown-key]';
const WARNING_LINE =
  '8:1 warning Unexpected directive `docgate-disable-next-line process-empty-body` that suppresses nothing, expected it removed or a directive where a rule reports [unused-disable-directive]';
const SHAPE_DIFF = [
  '--- a/processes/code-review.md',
  '+++ b/processes/code-review.md',
  '@@ -1,6 +1,6 @@',
  ' ---',
  ' name: Code Review',
  '-Description: How to request and close a code review',
  '+description: How to request and close a code review',
  ' ---',
  ' ',
  ' # Code Review',
];
const SHAPE_SUMMARY = '2 problems (1 error, 1 warning) in 2 files (2 files checked)\n  1 error and 0 warnings potentially fixable with the `--fix` option.\n';

describe('item 8: counts in the singular for one', () => {
  it('1 problem in 1 file (1 file checked), and the plural for any other count', () => {
    expect(run(['lint', '--root', STATUS])).toEqual({ code: 1, stdout: STATUS_PLAIN, stderr: '' });
    expect(run(['lint', '--root', fixture('rules', 'sysrs-valid')])).toEqual({ code: 0, stdout: '0 problems in 0 files (1 file checked)\n', stderr: '' });
    const one = tempRoot('docgate-manners-', { 'processes/only.md': '---\nname: Only\ndescription: The one process\n---\n\n# Only\n\nA body.\n' }, made);
    expect(run(['lint', '--root', one, '--format', 'github']).stdout).toBe('0 problems in 0 files (1 file checked)\n');
    expect(run(['lint', '--root', SHAPE]).stdout.endsWith(SHAPE_SUMMARY)).toBe(true);
  });

  it('the baseline says 1 error in 1 file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docgate-manners-'));
    made.push(dir);
    cpSync(STATUS, dir, { recursive: true });
    const r = run(['lint', '--root', dir, '--suppress-all']);
    expect(r).toEqual({
      code: 0,
      stdout: '0 problems in 0 files (1 file checked)\n',
      stderr: 'docgate: docgate-suppressions.json now suppresses 1 error in 1 file\n',
    });
  });
});

describe('item 8: --color, --no-color, FORCE_COLOR, NO_COLOR', () => {
  it('a pipe gets no colours by default, nor with NO_COLOR, FORCE_COLOR=0 or FORCE_COLOR=false', () => {
    for (const env of [{}, { NO_COLOR: '1' }, { FORCE_COLOR: '0' }, { FORCE_COLOR: 'false' }, { NO_COLOR: '' }]) {
      expect(run(['lint', '--root', STATUS], env), JSON.stringify(env)).toEqual({ code: 1, stdout: STATUS_PLAIN, stderr: '' });
    }
  });

  it('FORCE_COLOR (1, 2, 3, true or empty) colours a pipe, and wins over NO_COLOR', () => {
    for (const env of [
      { FORCE_COLOR: '1' },
      { FORCE_COLOR: '2' },
      { FORCE_COLOR: '3' },
      { FORCE_COLOR: 'true' },
      { FORCE_COLOR: '' },
      { FORCE_COLOR: '1', NO_COLOR: '1' },
    ]) {
      expect(run(['lint', '--root', STATUS], env), JSON.stringify(env)).toEqual({ code: 1, stdout: STATUS_COLOURED, stderr: '' });
    }
  });

  it('--color and --no-color win over both variables; the last of them wins; a file given to --output never has colours', () => {
    expect(run(['lint', '--root', STATUS, '--color'], { NO_COLOR: '1', FORCE_COLOR: '0' }).stdout).toBe(STATUS_COLOURED);
    expect(run(['lint', '--root', STATUS, '--no-color'], { FORCE_COLOR: '1' }).stdout).toBe(STATUS_PLAIN);
    expect(run(['lint', '--root', STATUS, '--color', '--no-color']).stdout).toBe(STATUS_PLAIN);
    expect(run(['lint', '--root', STATUS, '--no-color', '--color']).stdout).toBe(STATUS_COLOURED);
    const out = join(mkdtempSync(join(tmpdir(), 'docgate-manners-')), 'report.txt');
    made.push(join(out, '..'));
    const r = run(['lint', '--root', STATUS, '--color', '--format', 'stylish', '--output', out]);
    expect(r.stdout).toBe(STATUS_COLOURED);
    expect(readFileSync(out, 'utf8')).toBe(STATUS_PLAIN);
  });

  it('on a terminal: colours unless NO_COLOR, FORCE_COLOR=0 or TERM=dumb; the flag first', () => {
    expect(wantsColor(undefined, {}, true)).toBe(true);
    expect(wantsColor(undefined, { NO_COLOR: 'yes' }, true)).toBe(false);
    expect(wantsColor(undefined, { NO_COLOR: '' }, true)).toBe(true);
    expect(wantsColor(undefined, { FORCE_COLOR: '0' }, true)).toBe(false);
    expect(wantsColor(undefined, { TERM: 'dumb' }, true)).toBe(false);
    expect(wantsColor(undefined, { TERM: 'dumb', FORCE_COLOR: '1' }, true)).toBe(true);
    expect(wantsColor(true, { FORCE_COLOR: '0' }, false)).toBe(true);
    expect(wantsColor(false, { FORCE_COLOR: '1' }, true)).toBe(false);
  });

  it('lint --help documents the flags and the variables', () => {
    const help = run(['lint', '--help']).stdout;
    expect(help).toContain('\n  --color, --no-color           colours in the stylish report on stdout, or none (default: on a terminal; see Colours)\n');
    expect(help).toContain(
      '\nColours: --color or --no-color decides; else FORCE_COLOR (0 or false: none; 1, 2, 3, true or empty:\ncolours even when stdout is not a terminal); else NO_COLOR (any value but empty: none); else colours\nwhen stdout is a terminal whose TERM is not dumb. A report written with --output never has colours.\n',
    );
  });
});

describe("item 8: docgate's own words for a command line it cannot read (exit 2)", () => {
  it.each([
    [['lint', '--frobnicate'], "docgate: unknown option '--frobnicate' (see docgate lint --help)"],
    [['lint', '-x'], "docgate: unknown option '-x' (see docgate lint --help)"],
    [['lint', '--frobnicate=1', 'processes'], "docgate: unknown option '--frobnicate' (see docgate lint --help)"],
    [['lint', '--root'], "docgate: option '--root' needs a value (see docgate lint --help)"],
    [['lint', '--format'], "docgate: option '--format' needs a value (see docgate lint --help)"],
    [['lint', '--root', '--cache'], "docgate: option '--root' needs a value (see docgate lint --help)"],
    [['lint', '--cache=yes'], "docgate: option '--cache' takes no value (see docgate lint --help)"],
    [['lint', '--colour'], "docgate: unknown option '--colour' (see docgate lint --help)"],
    [['lint', '--a\u001b[2Jb'], "docgate: unknown option '--a\\x1b[2Jb' (see docgate lint --help)"],
    [['mcp', '--frobnicate'], "docgate: unknown option '--frobnicate' (see docgate mcp --help)"],
    [['mcp', 'extra'], "docgate: unexpected argument 'extra' (see docgate mcp --help)"],
    [['init', '--force'], "docgate: unknown option '--force' (see docgate init --help)"],
    [['init', '--root'], "docgate: option '--root' needs a value (see docgate init --help)"],
  ])('%j', (args, line) => {
    expect(run(args)).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
  });
});

describe('item 7: fixes made visible in stylish', () => {
  it('marks each fixable line and ends with how many problems --fix would fix', () => {
    expect(run(['lint', '--root', SHAPE])).toEqual({
      code: 1,
      stdout: `processes/code-review.md\n  ${FIXABLE_LINE} (fixable)\n\nprocesses/deployment.md\n  ${WARNING_LINE}\n\n${SHAPE_SUMMARY}`,
      stderr: '',
    });
    // --quiet drops the warning; the fixable error is still counted.
    expect(run(['lint', '--root', SHAPE, '--quiet']).stdout).toBe(
      `processes/code-review.md\n  ${FIXABLE_LINE} (fixable)\n\n1 problem in 1 file (2 files checked)\n  1 error and 0 warnings potentially fixable with the \`--fix\` option.\n`,
    );
  });

  it('--fix-dry-run prints the unified diff of each file the fixes change, and writes nothing', () => {
    const before = readFileSync(join(SHAPE, 'processes', 'code-review.md'));
    expect(run(['lint', '--root', SHAPE, '--fix-dry-run'])).toEqual({
      code: 1,
      stdout: `processes/code-review.md\n  ${FIXABLE_LINE} (fixable)\n\n${SHAPE_DIFF.join('\n')}\n\nprocesses/deployment.md\n  ${WARNING_LINE}\n\n${SHAPE_SUMMARY}`,
      stderr: '',
    });
    expect(readFileSync(join(SHAPE, 'processes', 'code-review.md'))).toEqual(before);
    const coloured = run(['lint', '--root', SHAPE, '--fix-dry-run', '--color']).stdout;
    expect(coloured).toContain(
      `${ESC}[1m--- a/processes/code-review.md${ESC}[0m\n${ESC}[1m+++ b/processes/code-review.md${ESC}[0m\n${ESC}[36m@@ -1,6 +1,6 @@${ESC}[0m\n`,
    );
    expect(coloured).toContain(
      `${ESC}[31m-Description: How to request and close a code review${ESC}[0m\n${ESC}[32m+description: How to request and close a code review${ESC}[0m\n`,
    );
  });

  it('a diff shows control and hidden characters of the document as escapes, never raw', () => {
    const root = tempRoot(
      'docgate-manners-',
      { 'processes/p.md': '---\nname: P\nDescription: Steps\n---\n\n# P\u202E\n\nClear \u001b[2J the screen\rover.\n' },
      made,
    );
    const r = run(['lint', '--root', root, '--fix-dry-run']);
    const diff = r.stdout.slice(r.stdout.indexOf('--- a/'), r.stdout.indexOf('\n\n', r.stdout.indexOf('--- a/')));
    expect(diff).toContain('\n-Description: Steps\n+description: Steps\n');
    expect(diff).toContain('\n-# P\\u{202E}\n+# P\n');
    expect(diff).toContain('\n Clear \\x1b[2J the screen\\x0dover.');
    expect(r.stdout).not.toMatch(/[\u001b\r\u202E]/);
  });

  it("with colours, each rule id of docgate's own links to its section of docs/rules.md", () => {
    const coloured = run(['lint', '--root', SHAPE, '--color']).stdout;
    expect(RULES_DOC_URL).toBe('https://github.com/docgate/docgate/blob/HEAD/docs/rules.md');
    expect(coloured).toContain(`[${ESC}]8;;${RULES_DOC_URL}#unknown-key${ESC}\\unknown-key${ESC}]8;;${ESC}\\]`);
    expect(coloured).toContain(`[${ESC}]8;;${RULES_DOC_URL}#unused-disable-directive${ESC}\\unused-disable-directive${ESC}]8;;${ESC}\\]`);
    expect(coloured).toContain(` ${ESC}[32m(fixable)${ESC}[0m\n`);
  });
});

type Report = Record<string, unknown> & { results: { diagnostics: Record<string, unknown>[] }[]; warnings: { diagnostics: Record<string, unknown>[] }[] };

/** The keys of a report, of each result and of each diagnostic (a fix's own keys aside), in order. */
function shape(report: Report): unknown {
  const results = [...report.results, ...report.warnings];
  return {
    report: Object.keys(report),
    results: [...new Set(results.map((r) => Object.keys(r).join(',')))],
    diagnostics: [
      ...new Set(
        results.flatMap((r) =>
          r.diagnostics.map((d) =>
            Object.keys(d)
              .filter((k) => k !== 'fix')
              .join(','),
          ),
        ),
      ),
    ],
  };
}

describe('item 9: one json shape, with a configuration or without', () => {
  it('every diagnostic states its severity; warnings and the counts are always there', () => {
    const clean = run(['lint', '--root', fixture('rules', 'sysrs-valid'), '--format', 'json']);
    expect(JSON.parse(clean.stdout)).toEqual({ results: [], warnings: [], filesChecked: 1, problemCount: 0, errorCount: 0, warningCount: 0 });
    const report = JSON.parse(run(['lint', '--root', STATUS, '--format', 'json']).stdout) as Report;
    expect(Object.keys(report)).toEqual(['results', 'warnings', 'filesChecked', 'problemCount', 'errorCount', 'warningCount']);
    expect(report.results[0]!.diagnostics.map((d) => d.severity)).toEqual(['error']);
  });

  it.each([
    ['errors only', STATUS],
    ['an error and a warning', SHAPE],
  ])('a configuration changes no key: the same report as without one (%s)', (_, root) => {
    const dir = mkdtempSync(join(tmpdir(), 'docgate-manners-'));
    made.push(dir);
    cpSync(root, dir, { recursive: true });
    const without = JSON.parse(run(['lint', '--root', dir, '--format', 'json']).stdout) as Report;
    writeFileSync(join(dir, 'docgate.config.yaml'), 'rules: {}\n');
    const withConfig = JSON.parse(run(['lint', '--root', dir, '--format', 'json']).stdout) as Report;
    expect(shape(withConfig)).toEqual(shape(without));
    expect(withConfig).toEqual(without);
  });

  it("docs/formats.md's json example is the real report of test/fixtures/json-shape, key for key", () => {
    const doc = readFileSync(join(REPO, 'docs', 'formats.md'), 'utf8');
    const reports = doc.slice(doc.indexOf('\n## Reports\n'));
    const block = /\n```json\n([\s\S]*?)\n```\n/.exec(reports);
    expect(block).not.toBeNull();
    const documented = JSON.parse(block![1]!) as Report;
    const real = JSON.parse(run(['lint', '--root', SHAPE, '--format', 'json']).stdout) as Report;
    expect(shape(documented)).toEqual(shape(real));
    expect(shape(documented)).toEqual({
      report: ['results', 'warnings', 'filesChecked', 'problemCount', 'errorCount', 'warningCount'],
      results: ['id,path,kind,error,diagnostics'],
      diagnostics: ['line,column,rule,message,severity'],
    });
    expect(documented).toEqual(real);
  });
});
