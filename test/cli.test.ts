import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO, fixture, runCli } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'docgate-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('docgate lint (child process)', () => {
  it('passes the bundled content with 0 problems and exit 0 (what `npm start` runs)', () => {
    const r = runCli(['lint']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^0 problems in 0 files \(\d+ files checked\)\n$/);
    const checked = Number(/\((\d+) files checked\)/.exec(r.stdout)![1]);
    // 5 templates, 4 frameworks, ≥5 processes, ≥3 SysRS (two English, one German variant).
    expect(checked).toBeGreaterThanOrEqual(17);
  });

  it('exits 1 with the failing path, its error lines indented, and the summary', () => {
    const root = fixture('rules', 'process-duplicate-name');
    const r = runCli(['lint', '--root', root]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'processes/code-review.md',
        '  2:7 Unexpected duplicate process name `Code Review`, expected names unique ignoring case (also in processes/peer-review.md) [process-duplicate-name]',
        '',
        'processes/peer-review.md',
        '  2:7 Unexpected duplicate process name `code REVIEW`, expected names unique ignoring case (also in processes/code-review.md) [process-duplicate-name]',
        '',
        '2 problems in 2 files (2 files checked)',
        '',
      ].join('\n'),
    );
  });

  it('lints one absolute path only, while cross-file rules still see the whole root', () => {
    const root = fixture('rules', 'process-duplicate-name');
    const r = runCli(['lint', '--root', root, '--format', 'json', join(root, 'processes', 'code-review.md')]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { results: { path: string; diagnostics: { rule: string }[] }[]; filesChecked: number; problemCount: number };
    expect(report.filesChecked).toBe(1);
    expect(report.results.map((x) => x.path)).toEqual(['processes/code-review.md']);
    expect(report.results[0]!.diagnostics.map((d) => d.rule)).toEqual(['process-duplicate-name']);
    expect(report.problemCount).toBe(1);
  });

  it('reports a staged symlink to a file outside the root as a failure of that file (exit 1), never reading it', () => {
    const root = join(tmp, 'with-link');
    mkdirSync(join(root, 'processes'), { recursive: true });
    writeFileSync(join(tmp, 'outside.md'), '---\nname: Outside\n---\n# Outside\n\nSECRET\n');
    symlinkSync(join(tmp, 'outside.md'), join(root, 'processes', 'link.md'));
    const r = runCli(['lint', '--root', root, join(root, 'processes', 'link.md')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'processes/link.md\n  1:1 Unexpected symbolic link to a target outside the root, expected a file inside the root [file-symlink]',
    );
    expect(r.stdout).not.toContain('SECRET');
  });

  it('accepts relative paths and folders as lint-staged passes them', () => {
    const root = fixture('rules', 'template-cycle');
    const r = runCli(['lint', '--format', 'json', 'templates/power/beta.txt'], { cwd: root });
    expect(JSON.parse(r.stdout).results.map((x: { path: string }) => x.path)).toEqual(['templates/power/beta.txt']);
    const dir = runCli(['lint', '--format', 'json', 'templates'], { cwd: root });
    expect(JSON.parse(dir.stdout).filesChecked).toBe(2);
  });

  it('ignores files that are not documents of any kind', () => {
    const r = runCli(['lint', 'package.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('0 problems in 0 files (0 files checked)\n');
  });

  it('reads the root from DOCGATE_ROOT, and --root wins over it', () => {
    const env = { DOCGATE_ROOT: fixture('rules', 'framework-heading') };
    const r = runCli(['lint'], { env, cwd: tmp });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('frameworks/COSTAR.md');
    const r2 = runCli(['lint', '--root', fixture('rules', 'sysrs-valid')], { env, cwd: tmp });
    expect(r2.code).toBe(0);
  });

  it('--format json prints the SPEC §4.3 report', () => {
    const r = runCli(['lint', '--root', fixture('rules', 'sysrs-status'), '--format', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(Object.keys(report)).toEqual(['results', 'warnings', 'filesChecked', 'problemCount', 'errorCount', 'warningCount']);
    expect(report.results[0]).toEqual({
      id: '7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c',
      path: 'docs/sysrs/fixture.md',
      kind: 'sysrs',
      error: '4:9 Unexpected `status` value `drafty`, expected one of: `draft`, `review`, `approved`, `active`, `retired` [invalid-value]',
      diagnostics: [
        {
          line: 4,
          column: 9,
          rule: 'invalid-value',
          message: 'Unexpected `status` value `drafty`, expected one of: `draft`, `review`, `approved`, `active`, `retired`',
          severity: 'error',
        },
      ],
    });
  });

  it('--output writes the report to a file while the terminal gets the stylish report', () => {
    const out = join(tmp, 'sub', 'report.json');
    const r = runCli(['lint', '--root', fixture('rules', 'sysrs-status'), '--format', 'json', '--output', out]);
    expect(r.code).toBe(1);
    expect(JSON.parse(readFileSync(out, 'utf8')).problemCount).toBe(1);
    expect(r.stdout).toContain('docs/sysrs/fixture.md\n  4:9 ');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 problem in 1 file (1 file checked)');
  });

  it.each([
    [['lint', '--bogus'], /^docgate: unknown option '--bogus' \(see docgate lint --help\)\n$/],
    [['lint', '--root', join(REPO, 'no-such-root')], /root .* does not exist/],
    [['lint', '--format', 'xml'], /unknown format 'xml'/],
    [['lint', 'no/such/file.md'], /no such file or folder: no\/such\/file\.md/],
    [['lint', '--root', fixture('rules', 'sysrs-valid'), REPO], /is outside the root/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['lint', '--format', 'json', '--output', join(REPO, 'package.json', 'report.json')], /cannot write the json report to .*package\.json\/report\.json/],
  ])('exits 2 on a usage or configuration error: %j', (args, message) => {
    const r = runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('prints usage with --help and the version with --version', () => {
    const help = runCli(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--root', '--format', '--output']) expect(help.stdout).toContain(flag);
    const version = runCli(['--version']);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version);
  });
});

describe('bin/docgate.js and the V8 code cache of the bundle', () => {
  /** A copy of the installed package (bin, bundle, validators, presets, schemas, package.json) to damage freely. */
  function packageCopy(name: string): string {
    const dir = join(tmp, name);
    for (const entry of ['package.json', 'bin', 'presets', 'schemas', join('dist', 'bundle'), join('dist', 'validators')])
      cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
    return dir;
  }

  function lintWith(dir: string): ReturnType<typeof spawnSync> {
    return spawnSync(process.execPath, [join(dir, 'bin', 'docgate.js'), 'lint', '--root', fixture('rules', 'process-duplicate-name')], { encoding: 'utf8' });
  }

  it('ships a code cache that V8 accepts for the bundle it was made from', () => {
    const r = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8', env: { ...process.env, DOCGATE_CODE_CACHE: 'report' } });
    expect(r.stderr).toBe('code cache: accepted\n');
    expect(r.status).toBe(0);
  });

  it('gives the same report when the cache is missing or damaged (the bundle is compiled from source)', () => {
    const expected = lintWith(REPO);
    expect(expected.status).toBe(1);
    expect(expected.stdout).toContain('[process-duplicate-name]');
    const missing = packageCopy('no-code-cache');
    rmSync(join(missing, 'dist', 'bundle', 'docgate.cjs.v8cache'));
    const damaged = packageCopy('damaged-code-cache');
    writeFileSync(join(damaged, 'dist', 'bundle', 'docgate.cjs.v8cache'), Buffer.alloc(4096, 7));
    for (const [dir, state] of [
      [missing, 'missing'],
      [damaged, 'rejected'],
    ] as const) {
      expect(
        spawnSync(process.execPath, [join(dir, 'bin', 'docgate.js'), '--version'], { encoding: 'utf8', env: { ...process.env, DOCGATE_CODE_CACHE: 'report' } })
          .stderr,
      ).toBe(`code cache: ${state}\n`);
      const r = lintWith(dir);
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: expected.status, stdout: expected.stdout, stderr: '' });
    }
  });

  it('compiles the yaml package from a code cache of its own, loaded only by a run that reads YAML with it', () => {
    const report = (dir: string, root: string) =>
      spawnSync(process.execPath, [join(dir, 'bin', 'docgate.js'), 'lint', '--root', root], {
        encoding: 'utf8',
        env: { ...process.env, DOCGATE_CODE_CACHE: 'report' },
      });
    // Flat frontmatter and no configuration: the flat reader takes it all, and the package is never loaded.
    expect(report(REPO, fixture('rules', 'process-duplicate-name')).stderr).toBe('code cache: accepted\n');
    // `presets: [agent-skills]` is a flow list, and the preset a YAML file: read by the package.
    const skills = fixture('presets', 'agent-skills');
    const expected = report(REPO, skills);
    expect(expected.stderr).toBe('code cache: accepted\ncode cache of yaml.cjs: accepted\n');
    expect(expected.stdout).toContain('[skill-path-match]');
    const missing = packageCopy('no-yaml-code-cache');
    rmSync(join(missing, 'dist', 'bundle', 'yaml.cjs.v8cache'));
    const damaged = packageCopy('damaged-yaml-code-cache');
    writeFileSync(join(damaged, 'dist', 'bundle', 'yaml.cjs.v8cache'), Buffer.alloc(4096, 7));
    for (const [dir, state] of [
      [missing, 'missing'],
      [damaged, 'rejected'],
    ] as const) {
      const r = report(dir, skills);
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
        status: expected.status,
        stdout: expected.stdout,
        stderr: `code cache: accepted\ncode cache of yaml.cjs: ${state}\n`,
      });
    }
  });
});
