import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { REPO } from './helpers.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedRepo, gitEnv, powerTemplate, runCli, writeFiles } from './helpers.js';

/**
 * `docgate lint --staged` (SPEC §10) through the CLI, in real temporary git repositories: what is
 * linted is the index, not the working tree.
 */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const env = gitEnv();

const template = powerTemplate;

function processDoc(name: string, extraBody = ''): string {
  return `---\nname: ${name}\ndescription: How we do it.\n---\n# ${name}\n\nStep one.\n${extraBody}`;
}

/** A new git repository holding `files`, committed. */
function repo(files: Record<string, string>): { dir: string; git: (...args: string[]) => string } {
  return committedRepo('docgate-staged-', files, made, env);
}

function staged(dir: string, ...extra: string[]) {
  return runCli(['lint', '--staged', ...extra], { cwd: dir, env });
}

const BASE = {
  'templates/power/readme.txt': template('readme', 'readme_summary'),
  'templates/power/api.txt': template('api', 'api_summary', '{{readme_summary}}'),
};

describe('docgate lint --staged: the index, not the working tree', () => {
  it('fails on a broken staged file even when the working tree has it fixed (exit 1)', () => {
    const { dir, git } = repo(BASE);
    writeFiles(dir, { 'processes/deploy.md': processDoc('Deploy').replace('description:', 'owner: ops\ndescription:') });
    git('add', 'processes/deploy.md');
    writeFiles(dir, { 'processes/deploy.md': processDoc('Deploy') });
    const r = staged(dir);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('processes/deploy.md\n  3:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]');
    expect(r.stdout).toContain('1 problem in 1 file (1 file checked)');
    // A plain run reads the working tree, which is fixed.
    expect(runCli(['lint', 'processes/deploy.md'], { cwd: dir, env }).code).toBe(0);
  });

  it('passes a valid staged file while the working tree has it broken (exit 0)', () => {
    const { dir, git } = repo(BASE);
    writeFiles(dir, { 'processes/deploy.md': processDoc('Deploy') });
    git('add', 'processes/deploy.md');
    writeFiles(dir, { 'processes/deploy.md': processDoc('Deploy').replace('description:', 'owner: ops\ndescription:') });
    const r = staged(dir);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toBe('0 problems in 0 files (1 file checked)\n');
    expect(runCli(['lint', 'processes/deploy.md'], { cwd: dir, env }).code).toBe(1);
  });

  it('never lets an untracked file satisfy a placeholder', () => {
    const { dir, git } = repo({ 'templates/power/readme.txt': template('readme', 'readme_summary') });
    writeFiles(dir, {
      'templates/power/foo.txt': template('foo', 'foo_summary'),
      'templates/power/bar.txt': template('bar', 'bar_summary', '{{foo_summary}}'),
    });
    git('add', 'templates/power/bar.txt');
    const r = staged(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'templates/power/bar.txt\n  4:25 Unexpected placeholder `{{foo_summary}}` that no template stores, expected the `store_as` of another template [template-placeholder]',
    );
    expect(r.stdout).not.toContain('foo.txt');
    // The working tree has foo.txt, so a plain run passes: only the index tells.
    expect(runCli(['lint'], { cwd: dir, env }).code).toBe(0);
    git('add', 'templates/power/foo.txt');
    expect(staged(dir).code).toBe(0);
  });

  it('fails a staged deletion at the templates that use what it stored', () => {
    const { dir, git } = repo(BASE);
    git('rm', '-q', 'templates/power/readme.txt');
    const r = staged(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'templates/power/api.txt\n  4:25 Unexpected placeholder `{{readme_summary}}` that no template stores, expected the `store_as` of another template [template-placeholder]\n\n1 problem in 1 file (1 file checked)\n',
    );
  });

  it('fails a changed store_as at the templates that use the old one, the changed file itself checked too', () => {
    const { dir, git } = repo(BASE);
    writeFiles(dir, { 'templates/power/readme.txt': template('readme', 'intro_summary') });
    git('add', '-A');
    const r = staged(dir, '--format', 'json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { results: { path: string; error: string }[]; filesChecked: number };
    expect(out.results.map((x) => x.path)).toEqual(['templates/power/api.txt']);
    expect(out.results[0]!.error).toContain('{{readme_summary}}');
    expect(out.filesChecked).toBe(2);
  });

  it('keeps a placeholder satisfied through a rename', () => {
    const { dir, git } = repo(BASE);
    git('mv', 'templates/power/readme.txt', 'templates/power/intro.txt');
    const r = staged(dir);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toBe('0 problems in 0 files (1 file checked)\n');
  });

  it('fails a duplicate name between a staged file and a committed one at both', () => {
    const { dir, git } = repo({ 'processes/deploy.md': processDoc('Deploy'), 'processes/release.md': processDoc('Release') });
    writeFiles(dir, { 'processes/shipping.md': processDoc('deploy') });
    git('add', 'processes/shipping.md');
    const r = staged(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('processes/deploy.md\n  2:7 Unexpected duplicate process name `Deploy`');
    expect(r.stdout).toContain('processes/shipping.md\n  2:7 Unexpected duplicate process name `deploy`');
    expect(r.stdout).not.toContain('release.md');
    expect(r.stdout).toContain('2 problems in 2 files (2 files checked)');
  });

  it('fails the deletion of an English SysRS at its language variant', () => {
    const sysrs = (path: string) => readFileSync(join(REPO, path), 'utf8');
    const { dir, git } = repo({
      'docs/sysrs/docgate-mcp-server.md': sysrs('docs/sysrs/docgate-mcp-server.md'),
      'docs/sysrs/de/docgate-mcp-server.md': sysrs('docs/sysrs/de/docgate-mcp-server.md'),
      'docs/sysrs/docgate-core.md': sysrs('docs/sysrs/docgate-core.md'),
    });
    git('rm', '-q', 'docs/sysrs/docgate-mcp-server.md');
    const r = staged(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'docs/sysrs/de/docgate-mcp-server.md\n  1:1 Unexpected language variant without an English source, expected docs/sysrs/docgate-mcp-server.md [sysrs-variant-source]\n\n1 problem in 1 file (1 file checked)\n',
    );
  });

  it('checks a partially staged file (git add -p) as staged', () => {
    const body = Array.from({ length: 12 }, (_, i) => `Line ${i + 1}.\n`).join('');
    const { dir, git } = repo({ 'processes/deploy.md': processDoc('Deploy', body) });
    // Two hunks: a key the schema refuses at the top, a harmless change at the bottom.
    writeFiles(dir, {
      'processes/deploy.md': processDoc('Deploy', body.replace('Line 12.', 'Line twelve.')).replace('description:', 'owner: ops\ndescription:'),
    });
    const addP = (answers: string) => spawnSync('git', ['add', '-p', 'processes/deploy.md'], { cwd: dir, env, input: answers, encoding: 'utf8' });
    expect(addP('n\ny\n').status).toBe(0); // only the harmless hunk
    expect(staged(dir).code).toBe(0);
    expect(runCli(['lint'], { cwd: dir, env }).code).toBe(1);
    git('reset', '-q');
    expect(addP('y\nn\n').status).toBe(0); // only the refused key
    const r = staged(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('3:1 Unexpected key `owner`');
  });

  it('refuses a staged file larger than the size limit by its size, without reading the blob', () => {
    // The only template of the index: no other blob of its kind is read either.
    const { dir, git } = repo({ 'processes/deploy.md': processDoc('Deploy') });
    const big = template('huge', 'huge_summary') + `# ${'x'.repeat(60 * 1024)}\n`;
    writeFiles(dir, { 'templates/power/huge.txt': big });
    git('add', '-A');
    const trace = join(dir, '..', `${dir.split('/').pop()}-trace.log`);
    made.push(trace);
    const r = runCli(['lint', '--staged'], { cwd: dir, env: { ...env, GIT_TRACE: trace } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'templates/power/huge.txt\n  1:1 Unexpected file size 61,671 bytes, expected less than 51,200 bytes [file-size]\n\n1 problem in 1 file (1 file checked)\n',
    );
    const commands = readFileSync(trace, 'utf8');
    expect(commands).toContain('cat-file --batch-check');
    expect(commands).not.toMatch(/cat-file --batch(?!-)/);
  });

  it('treats a staged symbolic link as a link: inside the indexed tree it is read, out of the root it is refused', () => {
    const { dir, git } = repo(BASE);
    symlinkSync('../../../outside.txt', join(dir, 'templates/power/escape.txt'));
    symlinkSync('readme.txt', join(dir, 'templates/power/alias.txt'));
    git('add', '-A');
    const r = staged(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'templates/power/escape.txt\n  1:1 Unexpected symbolic link to a target outside the root, expected a file inside the root [file-symlink]',
    );
    // The link inside the root is read as its target: the same store_as twice.
    expect(r.stdout).toContain('templates/power/alias.txt\n  9:11 Unexpected duplicate');
  });

  it('gives the same report from its blob-keyed cache, also after the working tree changed under it', () => {
    const { dir, git } = repo(BASE);
    git('rm', '-q', 'templates/power/readme.txt');
    const cold = staged(dir, '--cache');
    expect(cold.code).toBe(1);
    const gitDir = git('rev-parse', '--absolute-git-dir').trim();
    expect(readFileSync(join(gitDir, 'docgate-staged-cache')).length).toBeGreaterThan(0);
    // Rewriting the working tree (same size, same second) changes nothing for a cache keyed by blob ids.
    writeFiles(dir, { 'templates/power/api.txt': template('api', 'api_summarx', '{{readme_summary}}') });
    const warm = staged(dir, '--cache');
    expect(warm).toEqual(cold);
    git('checkout', '-q', 'HEAD', '--', 'templates/power/readme.txt');
    expect(staged(dir, '--cache').code).toBe(0);
  });

  it('is a usage error outside a git work tree, and with paths (exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docgate-nogit-'));
    made.push(dir);
    writeFiles(dir, BASE);
    const outside = runCli(['lint', '--staged', '--root', dir], { env: { ...env, GIT_CEILING_DIRECTORIES: tmpdir() } });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('--staged needs a git repository');
    const { dir: inRepo } = repo(BASE);
    const withPaths = staged(inRepo, 'templates/power/api.txt');
    expect(withPaths.code).toBe(2);
    expect(withPaths.stderr).toContain('--staged lints the whole snapshot being committed and takes no paths');
  });
});
