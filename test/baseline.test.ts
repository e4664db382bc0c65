import { existsSync, lstatSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMcp, resultOf, structuredOf, textOf } from './fixtures/mcp/harness.js';
import { REPO, runCli, tempRoot, writeFiles } from './helpers.js';

/**
 * The baseline (SPEC §8): ESLint 9's bulk suppressions. `--suppress-all` / `--suppress-rule` record the
 * errors of today per document and rule in docgate-suppressions.json; later runs drop them while their
 * number stays within the count, report them all once it is exceeded, and warn about entries that no
 * longer occur until `--prune-suppressions` removes them. Applied in the core: lint and MCP alike.
 */

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function root(files: Record<string, string>): string {
  return tempRoot('docgate-baseline-', files, roots);
}

const write = writeFiles;

function lines(...l: string[]): string {
  return `${l.join('\n')}\n`;
}

/** A process whose frontmatter has the given unknown keys (each an error of `unknown-key`, from line 3 on). */
function withKeys(name: string, ...keys: string[]): string {
  return `---\nname: ${name}\n${keys.map((k) => `${k}: x\n`).join('')}---\n\n# ${name}\n\nBody.\n`;
}

const unknown = (line: number, key: string): string => `${line}:1 Unexpected key \`${key}\`, expected one of: \`name\`, \`description\` [unknown-key]`;
const EMPTY = '---\nname: Empty\n---\n';

const legacy = (): Record<string, string> => ({
  'processes/a-legacy.md': withKeys('Legacy', 'owner', 'team'),
  'processes/b-empty.md': EMPTY,
  'processes/c-valid.md': withKeys('Valid'),
});

const BASELINE = lines(
  '{',
  '  "processes/a-legacy.md": {',
  '    "unknown-key": {',
  '      "count": 2',
  '    }',
  '  },',
  '  "processes/b-empty.md": {',
  '    "process-empty-body": {',
  '      "count": 1',
  '    }',
  '  }',
  '}',
);

describe('the baseline cycle through the CLI', () => {
  it('suppress-all → clean → a new error fails → fixed ones are reported until pruned', () => {
    const dir = root(legacy());
    const cli = (...args: string[]) => runCli(['lint', ...args], { cwd: dir });
    const baseline = () => readFileSync(join(dir, 'docgate-suppressions.json'), 'utf8');

    // Today: three errors in two files.
    expect(cli().code).toBe(1);

    // Record them all: exit 0, the file sorted and stable to diff.
    expect(cli('--suppress-all')).toEqual({
      code: 0,
      stdout: lines('0 problems in 0 files (3 files checked)'),
      stderr: lines('docgate: docgate-suppressions.json now suppresses 3 errors in 2 files'),
    });
    expect(baseline()).toBe(BASELINE);

    // Clean from now on, in every format.
    expect(cli()).toEqual({ code: 0, stdout: lines('0 problems in 0 files (3 files checked)'), stderr: '' });
    expect(JSON.parse(cli('--format', 'json').stdout)).toEqual({ results: [], warnings: [], filesChecked: 3, problemCount: 0, errorCount: 0, warningCount: 0 });

    // A new error of the same rule in a baselined file: more than recorded, so every one is reported.
    write(dir, { 'processes/a-legacy.md': withKeys('Legacy', 'owner', 'team', 'budget') });
    expect(cli()).toEqual({
      code: 1,
      stdout: lines(
        'processes/a-legacy.md',
        `  ${unknown(3, 'owner')}`,
        `  ${unknown(4, 'team')}`,
        `  ${unknown(5, 'budget')}`,
        '',
        '3 problems in 1 file (3 files checked)',
      ),
      stderr: '',
    });
    // A new error in a clean file fails too.
    write(dir, { 'processes/a-legacy.md': withKeys('Legacy', 'owner', 'team'), 'processes/c-valid.md': withKeys('Valid', 'budget') });
    expect(cli()).toEqual({
      code: 1,
      stdout: lines('processes/c-valid.md', `  ${unknown(3, 'budget')}`, '', '1 problem in 1 file (3 files checked)'),
      stderr: '',
    });

    // Legacy errors fixed: still green, but the entries that no longer occur are reported until pruned.
    write(dir, { 'processes/a-legacy.md': withKeys('Legacy', 'owner'), 'processes/b-empty.md': withKeys('Empty'), 'processes/c-valid.md': withKeys('Valid') });
    const stale = lines(
      'docgate: warning: processes/a-legacy.md: 1 suppressed unknown-key error no longer occurs; run docgate lint --prune-suppressions to update docgate-suppressions.json',
      'docgate: warning: processes/b-empty.md: 1 suppressed process-empty-body error no longer occurs; run docgate lint --prune-suppressions to update docgate-suppressions.json',
    );
    expect(cli()).toEqual({ code: 0, stdout: lines('0 problems in 0 files (3 files checked)'), stderr: stale });

    // Prune: the counts go down to what occurs, entries at 0 go; the baseline only shrinks.
    expect(cli('--prune-suppressions')).toEqual({
      code: 0,
      stdout: lines('0 problems in 0 files (3 files checked)'),
      stderr: lines('docgate: docgate-suppressions.json now suppresses 1 error in 1 file'),
    });
    expect(baseline()).toBe(lines('{', '  "processes/a-legacy.md": {', '    "unknown-key": {', '      "count": 1', '    }', '  }', '}'));
    expect(cli()).toEqual({ code: 0, stdout: lines('0 problems in 0 files (3 files checked)'), stderr: '' });

    // The last legacy error fixed and pruned: an empty baseline.
    write(dir, { 'processes/a-legacy.md': withKeys('Legacy') });
    expect(cli('--prune-suppressions').stderr).toBe(lines('docgate: docgate-suppressions.json now suppresses 0 errors in 0 files'));
    expect(baseline()).toBe('{}\n');
  });

  it('--suppress-rule records only that rule, keeping the other entries; the rest still fails', () => {
    const dir = root(legacy());
    const cli = (...args: string[]) => runCli(['lint', ...args], { cwd: dir });
    expect(cli('--suppress-rule', 'process-empty-body')).toEqual({
      code: 1,
      stdout: lines('processes/a-legacy.md', `  ${unknown(3, 'owner')}`, `  ${unknown(4, 'team')}`, '', '2 problems in 1 file (3 files checked)'),
      stderr: lines('docgate: docgate-suppressions.json now suppresses 1 error in 1 file'),
    });
    expect(cli('--suppress-rule', 'unknown-key').code).toBe(0);
    expect(readFileSync(join(dir, 'docgate-suppressions.json'), 'utf8')).toBe(BASELINE);
    expect(cli('--suppress-rule', 'no-such-rule')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'docgate: --suppress-rule no-such-rule: Unexpected rule id `no-such-rule`, expected a rule id of docgate (see docs/rules.md) or of a configured kind\n',
    });
  });

  it('judges only the named paths in a run over some of them (a pre-commit hook)', () => {
    const dir = root(legacy());
    const cli = (...args: string[]) => runCli(['lint', ...args], { cwd: dir });
    cli('--suppress-all');
    write(dir, { 'processes/b-empty.md': withKeys('Empty') });
    // a-legacy.md is unchanged; b-empty.md, fixed, is not named: nothing to say.
    expect(cli('processes/a-legacy.md')).toEqual({ code: 0, stdout: lines('0 problems in 0 files (1 file checked)'), stderr: '' });
    // A whole-root run judges every entry, a deleted document's too.
    rmSync(join(dir, 'processes/a-legacy.md'));
    expect(cli().stderr).toBe(
      lines(
        'docgate: warning: processes/a-legacy.md: 2 suppressed unknown-key errors no longer occur; run docgate lint --prune-suppressions to update docgate-suppressions.json',
        'docgate: warning: processes/b-empty.md: 1 suppressed process-empty-body error no longer occurs; run docgate lint --prune-suppressions to update docgate-suppressions.json',
      ),
    );
  });

  it('never records or drops warnings (ESLint suppresses errors only)', () => {
    const dir = root({ ...legacy(), 'docgate.config.yaml': 'rules:\n  unknown-key: warn\n' });
    const cli = (...args: string[]) => runCli(['lint', ...args], { cwd: dir });
    const warned = lines(
      'processes/a-legacy.md',
      `  ${unknown(3, 'owner').replace('3:1 ', '3:1 warning ')}`,
      `  ${unknown(4, 'team').replace('4:1 ', '4:1 warning ')}`,
      '',
    );
    expect(cli('--suppress-all')).toEqual({
      code: 0,
      stdout: `${warned}2 problems (0 errors, 2 warnings) in 1 file (3 files checked)\n`,
      stderr: lines('docgate: docgate-suppressions.json now suppresses 1 error in 1 file'),
    });
    expect(readFileSync(join(dir, 'docgate-suppressions.json'), 'utf8')).toBe(
      lines('{', '  "processes/b-empty.md": {', '    "process-empty-body": {', '      "count": 1', '    }', '  }', '}'),
    );
  });

  it('keeps the file at --suppressions-location, which must exist unless this run records it', () => {
    const dir = root(legacy());
    const cli = (...args: string[]) => runCli(['lint', ...args], { cwd: dir });
    expect(cli('--suppressions-location', 'ci/baseline.json')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: the suppressions file ci/baseline.json does not exist; create it with docgate lint --suppress-all or --suppress-rule RULE\n',
    });
    expect(cli('--suppressions-location', 'ci/baseline.json', '--suppress-all').stderr).toBe(
      lines('docgate: ci/baseline.json now suppresses 3 errors in 2 files'),
    );
    expect(readFileSync(join(dir, 'ci/baseline.json'), 'utf8')).toBe(BASELINE);
    expect(cli('--suppressions-location', 'ci/baseline.json')).toEqual({ code: 0, stdout: lines('0 problems in 0 files (3 files checked)'), stderr: '' });
    // Without it, the root's (absent) file applies: everything fails again.
    expect(cli().code).toBe(1);
    // No content document is ever written, not even one named as the suppressions file.
    expect(cli('--suppressions-location', 'processes/d-baseline.md', '--suppress-all')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: cannot write the suppressions file processes/d-baseline.md: it is a document of the repository, expected a file of its own\n',
    });
    expect(existsSync(join(dir, 'processes/d-baseline.md'))).toBe(false);
  });

  it('refuses contradicting flags and a file that is not a baseline (exit 2)', () => {
    const dir = root(legacy());
    const cli = (...args: string[]) => runCli(['lint', ...args], { cwd: dir });
    expect(cli('--suppress-all', '--prune-suppressions')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: --suppress-all and --prune-suppressions cannot be used together\n',
    });
    expect(cli('--suppress-all', '--suppress-rule', 'unknown-key')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: --suppress-all and --suppress-rule cannot be used together\n',
    });
    write(dir, { 'docgate-suppressions.json': '{\n  "processes/a-legacy.md": {\n    "unknown-key": { "count": 2 },\n  }\n}\n' });
    expect(cli()).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'docgate: docgate-suppressions.json:4:3 Unexpected text that is not JSON (Expected double-quoted property name), expected the JSON that docgate lint --suppress-all writes\n',
    });
    write(dir, { 'docgate-suppressions.json': '{ "processes/a-legacy.md": { "unknown-key": { "count": 0 } } }\n' });
    expect(cli()).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'docgate: docgate-suppressions.json: Unexpected value of `processes/a-legacy.md` › `unknown-key`, expected `{ "count": n }` with a whole number n of at least 1 (the JSON that docgate lint --suppress-all writes)\n',
    });
  });

  it('reads no link out of the root, and writes through no link (a link is replaced, its target untouched)', () => {
    const outside = root({ 'target.json': '{}\n' });
    const dir = root(legacy());
    symlinkSync(join(outside, 'target.json'), join(dir, 'docgate-suppressions.json'));
    const refused = {
      code: 2,
      stdout: '',
      stderr: 'docgate: cannot read suppressions file docgate-suppressions.json: it resolves outside the root (through a symbolic link)\n',
    };
    expect(runCli(['lint'], { cwd: dir })).toEqual(refused);
    expect(runCli(['lint', '--suppress-all'], { cwd: dir })).toEqual(refused);
    expect(readFileSync(join(outside, 'target.json'), 'utf8')).toBe('{}\n');
    // A link inside the root is read; recording replaces the link by a file, the file it named unchanged.
    rmSync(join(dir, 'docgate-suppressions.json'));
    write(dir, { 'shared/base.json': '{}\n' });
    symlinkSync(join(dir, 'shared/base.json'), join(dir, 'docgate-suppressions.json'));
    expect(runCli(['lint', '--suppress-all'], { cwd: dir }).code).toBe(0);
    expect(readFileSync(join(dir, 'shared/base.json'), 'utf8')).toBe('{}\n');
    expect(lstatSync(join(dir, 'docgate-suppressions.json')).isFile()).toBe(true);
    expect(readFileSync(join(dir, 'docgate-suppressions.json'), 'utf8')).toBe(BASELINE);
  });

  it('invalidates the lint cache when the baseline changes', () => {
    const dir = root(legacy());
    const cli = (...args: string[]) => runCli(['lint', '--cache', ...args], { cwd: dir });
    expect(cli('--suppress-all').code).toBe(0);
    expect(cli().code).toBe(0);
    // The count lowered by hand: the cached run must not replay the old answer.
    write(dir, { 'docgate-suppressions.json': BASELINE.replace('"count": 2', '"count": 1') });
    expect(cli()).toEqual({
      code: 1,
      stdout: lines('processes/a-legacy.md', `  ${unknown(3, 'owner')}`, `  ${unknown(4, 'team')}`, '', '2 problems in 1 file (3 files checked)'),
      stderr: '',
    });
  });
});

describe("docs/cli.md's worked example (40 failing legacy files: baseline, then ratchet down)", () => {
  it('prints what docs/cli.md shows, step by step', () => {
    const readme = readFileSync(join(REPO, 'docs', 'cli.md'), 'utf8');
    const files: Record<string, string> = {};
    for (let i = 1; i <= 40; i++) {
      const n = String(i).padStart(2, '0');
      files[`processes/legacy-${n}.md`] = i <= 30 ? withKeys(`Legacy ${n}`, 'owner') : `---\nname: Legacy ${n}\nowner: ops\nteam: core\n---\n`;
    }
    for (const name of ['Deploy', 'Release', 'Review']) files[`processes/${name.toLowerCase()}.md`] = withKeys(name);
    const dir = root(files);
    const cli = (...args: string[]) => runCli(['lint', ...args], { cwd: dir });
    /** docs/cli.md shows stderr lines first, then stdout, as a terminal does. */
    const shown = (r: { stdout: string; stderr: string }) => `${r.stderr}${r.stdout}`;
    const inReadme = (text: string) => expect(readme.replace(/^ {3}/gm, ''), text).toContain(text.trimEnd());

    const before = cli();
    expect(before.code).toBe(1);
    inReadme(before.stdout.split('\n').slice(-7).join('\n'));

    const all = cli('--suppress-all');
    expect(all.code).toBe(0);
    inReadme(`$ docgate lint --suppress-all\n${shown(all)}`);

    write(dir, { 'processes/onboarding.md': withKeys('Onboarding', 'owner') });
    const added = cli('processes/onboarding.md');
    expect(added.code).toBe(1);
    inReadme(`$ docgate lint processes/onboarding.md\n${shown(added)}`);
    rmSync(join(dir, 'processes/onboarding.md'));
    write(dir, { 'processes/legacy-01.md': withKeys('Legacy 01', 'owner', 'reviewer') });
    const grown = cli('processes/legacy-01.md');
    expect(grown.code).toBe(1);
    inReadme(shown(grown));

    for (let i = 1; i <= 10; i++) write(dir, { [`processes/legacy-${String(i).padStart(2, '0')}.md`]: withKeys(`Legacy ${String(i).padStart(2, '0')}`) });
    const stale = cli();
    expect(stale.code).toBe(0);
    expect(stale.stderr.split('\n').filter(Boolean)).toHaveLength(10);
    inReadme(stale.stderr.split('\n')[0]!);
    const pruned = cli('--prune-suppressions');
    expect(pruned.code).toBe(0);
    inReadme(`$ docgate lint --prune-suppressions\n${shown(pruned)}`);
  });
});

describe('the baseline and the configuration in the MCP server', () => {
  it('serves a document whose errors are all in the baseline, in every tool, and fails it again once exceeded', async () => {
    const dir = root(legacy());
    expect(runCli(['lint', '--suppress-all'], { cwd: dir }).code).toBe(0);
    const s = await startMcp(dir);
    try {
      const list = structuredOf<{ processes: { slug: string }[]; error_count: number; failures: unknown[] }>(await s.call('list_processes'));
      expect(list.processes.map((p) => p.slug)).toEqual(['a-legacy', 'b-empty', 'c-valid']);
      expect([list.error_count, list.failures]).toEqual([0, []]);
      expect(resultOf(await s.call('get_process', { name: 'a-legacy' }))).toEqual({
        name: 'Legacy',
        slug: 'a-legacy',
        description: '',
        content: '# Legacy\n\nBody.\n',
      });
      expect(resultOf(await s.call('get_process', { name: 'b-empty' }))).toEqual({ name: 'Empty', slug: 'b-empty', description: '', content: '' });
      expect(structuredOf(await s.call('validate'))).toEqual({ results: [], filesChecked: 3, problemCount: 0 });
      // Asked again (from the server's memory), the same answer.
      expect(resultOf(await s.call('get_process', { name: 'a-legacy' }))).toMatchObject({ slug: 'a-legacy' });
      // One more error than recorded: the document fails with all of them, as lint says.
      write(dir, { 'processes/a-legacy.md': withKeys('Legacy', 'owner', 'team', 'budget') });
      const failed = await s.call('get_process', { name: 'a-legacy' });
      expect(JSON.parse(textOf(failed))).toMatchObject({ id: 'a-legacy', error: [unknown(3, 'owner'), unknown(4, 'team'), unknown(5, 'budget')].join('\n') });
    } finally {
      await s.close();
    }
  });

  it('hides what `ignores` matches from list and get, and reads --config and --suppressions-location', async () => {
    const dir = root({ ...legacy(), 'docgate.config.yaml': 'ignores: ["processes/b-*.md"]\n', 'ci/strict.yaml': 'ignores: ["processes/c-*.md"]\n' });
    const s = await startMcp(dir);
    try {
      const list = structuredOf<{ processes: { slug: string }[]; failures: { id: string }[] }>(await s.call('list_processes'));
      expect([list.processes.map((p) => p.slug), list.failures.map((f) => f.id)]).toEqual([['c-valid'], ['a-legacy']]);
      expect(resultOf(await s.call('get_process', { name: 'b-empty' }))).toEqual({
        error: 'PROCESS_NOT_FOUND',
        message: "Process 'b-empty' not found.",
        available: ['a-legacy', 'c-valid'],
      });
    } finally {
      await s.close();
    }
    expect(runCli(['lint', '--config', 'ci/strict.yaml', '--suppressions-location', 'ci/baseline.json', '--suppress-all'], { cwd: dir }).code).toBe(0);
    const t = await startMcp(dir, {}, ['--config', join(dir, 'ci/strict.yaml'), '--suppressions-location', join(dir, 'ci/baseline.json')]);
    try {
      const list = structuredOf<{ processes: { slug: string }[]; failures: unknown[] }>(await t.call('list_processes'));
      expect([list.processes.map((p) => p.slug), list.failures]).toEqual([['a-legacy', 'b-empty'], []]);
    } finally {
      await t.close();
    }
  });
});

describe('a change to the configuration or a rule file is seen at once', () => {
  it('by the lint cache and by the MCP server, without a restart', async () => {
    const dir = root({ ...legacy(), 'docgate.config.yaml': 'rules:\n  unknown-key: off\n  process-empty-body: off\n' });
    const cached = (): { code: number; stdout: string } => runCli(['lint', '--cache'], { cwd: dir });
    expect(cached()).toMatchObject({ code: 0, stdout: '0 problems in 0 files (3 files checked)\n' });
    const s = await startMcp(dir);
    try {
      expect(resultOf(await s.call('get_process', { name: 'a-legacy' }))).toMatchObject({ slug: 'a-legacy' });
      // The rule back on: lint's cache and the server's memory both judge again.
      write(dir, { 'docgate.config.yaml': 'rules:\n  process-empty-body: off\n' });
      expect(cached()).toEqual({
        code: 1,
        stdout: lines('processes/a-legacy.md', `  ${unknown(3, 'owner')}`, `  ${unknown(4, 'team')}`, '', '2 problems in 1 file (3 files checked)'),
        stderr: '',
      });
      expect(JSON.parse(textOf(await s.call('get_process', { name: 'a-legacy' })))).toMatchObject({
        id: 'a-legacy',
        error: [unknown(3, 'owner'), unknown(4, 'team')].join('\n'),
      });
      // A root schema that accepts `owner` and `team`: a rule file changed, the same again.
      write(dir, {
        'schemas/process-frontmatter.schema.json': '{ "type": "object", "properties": { "name": { "type": "string" }, "owner": {}, "team": {} } }\n',
      });
      expect(cached()).toMatchObject({ code: 0, stdout: '0 problems in 0 files (3 files checked)\n' });
      expect(resultOf(await s.call('get_process', { name: 'a-legacy' }))).toMatchObject({ slug: 'a-legacy' });
    } finally {
      await s.close();
    }
  });
});
