import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedRepo, gitEnv, runCli, writeFiles } from './helpers.js';

/**
 * `docgate lint --staged --cache` answers the common commit (bodies edited: every changed document keeps
 * its path, id and facts) from HEAD's results across files, kept by an earlier whole run, without
 * listing the index. Every answer must be the whole run's, byte for byte: each step below is run with
 * the cache (traced, to see which way it went) and without it (always the whole run), and compared.
 */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const env = gitEnv();

function processDoc(name: string, body = 'Step one.\n'): string {
  return `---\nname: ${name}\ndescription: How we do it.\n---\n# ${name}\n\n${body}`;
}

function repo(files: Record<string, string>): { dir: string; git: (...args: string[]) => string; cache: string } {
  const r = committedRepo('docgate-staged-trees-', files, made, env);
  return { ...r, cache: join(r.dir, '.git', 'docgate-staged-cache') };
}

let traces = 0;

/** The staged run with the cache and without it: the same exit code and report; and whether the cached run listed the index. */
function both(dir: string): { code: number | null; stdout: string; listed: boolean } {
  const trace = join(tmpdir(), `docgate-staged-trees-${process.pid}-${++traces}.log`);
  made.push(trace);
  const cached = runCli(['lint', '--staged', '--cache'], { cwd: dir, env: { ...env, GIT_TRACE: trace } });
  const whole = runCli(['lint', '--staged'], { cwd: dir, env });
  expect({ code: cached.code, stdout: cached.stdout }).toEqual({ code: whole.code, stdout: whole.stdout });
  expect(cached.stderr).toBe('');
  return { code: cached.code, stdout: cached.stdout, listed: /ls-files/.test(readFileSync(trace, 'utf8')) };
}

const DUPLICATE = '2:7 Unexpected duplicate process name `deploy`, expected names unique ignoring case (also in processes/deploy.md) [process-duplicate-name]';

describe('docgate lint --staged --cache: the common commit from HEAD’s tree', () => {
  it('reports a body edit with the results across files of HEAD’s tree, without listing the index, as the whole run does', () => {
    const { dir, git } = repo({
      'processes/deploy.md': processDoc('Deploy'),
      'processes/shipping.md': processDoc('deploy'), // a duplicate name, committed past the hook
      'processes/release.md': processDoc('Release'),
    });
    // No tree kept yet: the whole run, which keeps HEAD's.
    writeFiles(dir, { 'processes/release.md': processDoc('Release', 'Step one, edited.\n') });
    git('add', '-A');
    const first = both(dir);
    expect(first).toEqual({ code: 0, stdout: '0 problems in 0 files (1 file checked)\n', listed: true });
    // A body edit of the duplicate: its result across files comes from the tree kept.
    git('reset', '-q', '--hard');
    writeFiles(dir, { 'processes/shipping.md': processDoc('deploy', 'Step one, edited.\n') });
    git('add', '-A');
    const second = both(dir);
    expect(second.listed).toBe(false);
    expect(second.code).toBe(1);
    expect(second.stdout).toContain(`processes/shipping.md\n  ${DUPLICATE}`);
    expect(second.stdout).toContain('1 problem in 1 file (1 file checked)');
    // The staged file's own problems come from its staged blob, with the results across files.
    writeFiles(dir, { 'processes/shipping.md': processDoc('deploy', 'Step one.\n').replace('description:', 'owner: ops\ndescription:') });
    git('add', '-A');
    const third = both(dir);
    expect(third.listed).toBe(false);
    expect(third.stdout).toContain('3:1 Unexpected key `owner`');
    expect(third.stdout).toContain('2 problems in 1 file (1 file checked)');
  });

  it('runs whole when a change alters facts, adds or deletes a document, or HEAD moved to a tree not kept', () => {
    const { dir, git } = repo({
      'processes/deploy.md': processDoc('Deploy'),
      'processes/shipping.md': processDoc('deploy'),
      'processes/release.md': processDoc('Release'),
    });
    writeFiles(dir, { 'processes/release.md': processDoc('Release', 'Edited.\n') });
    git('add', '-A');
    expect(both(dir).listed).toBe(true);
    // A renamed process: its facts differ from HEAD's, and deploy.md's duplicate is gone (reported too).
    git('reset', '-q', '--hard');
    writeFiles(dir, { 'processes/shipping.md': processDoc('Shipping') });
    git('add', '-A');
    const renamed = both(dir);
    expect(renamed.listed).toBe(true);
    expect(renamed.stdout).toBe('0 problems in 0 files (2 files checked)\n');
    // An added and a deleted document.
    git('reset', '-q', '--hard');
    writeFiles(dir, { 'processes/audit.md': processDoc('Release') });
    git('add', '-A');
    const added = both(dir);
    expect(added.listed).toBe(true);
    expect(added.code).toBe(1);
    git('reset', '-q', '--hard');
    git('rm', '-q', 'processes/deploy.md');
    const deleted = both(dir);
    expect(deleted.listed).toBe(true);
    expect(deleted.stdout).toBe('0 problems in 0 files (1 file checked)\n');
    // A commit moves HEAD to a tree never seen: whole once, then from that tree.
    git('reset', '-q', '--hard');
    writeFiles(dir, { 'processes/shipping.md': processDoc('Shipping') });
    git('commit', '-q', '--no-verify', '-am', 'rename');
    writeFiles(dir, { 'processes/deploy.md': processDoc('Deploy', 'Edited.\n') });
    git('add', '-A');
    expect(both(dir)).toEqual({ code: 0, stdout: '0 problems in 0 files (1 file checked)\n', listed: true });
    writeFiles(dir, { 'processes/deploy.md': processDoc('Deploy', 'Edited again.\n') });
    git('add', '-A');
    expect(both(dir)).toEqual({ code: 0, stdout: '0 problems in 0 files (1 file checked)\n', listed: false });
    // Back on the first commit's tree (a checkout): its kept results answer again.
    git('reset', '-q', '--hard');
    git('checkout', '-q', 'HEAD~1');
    writeFiles(dir, { 'processes/shipping.md': processDoc('deploy', 'Edited.\n') });
    git('add', '-A');
    const back = both(dir);
    expect(back.listed).toBe(false);
    expect(back.stdout).toContain(DUPLICATE);
  });

  it('runs whole when the kept trees are damaged, and keeps them again', () => {
    const { dir, git, cache } = repo({ 'processes/deploy.md': processDoc('Deploy'), 'processes/shipping.md': processDoc('deploy') });
    writeFiles(dir, { 'processes/deploy.md': processDoc('Deploy', 'Edited.\n') });
    git('add', '-A');
    expect(both(dir).listed).toBe(true);
    // Every byte of the trees' table made a space: no JSON, so no tree is known.
    const bytes = readFileSync(cache);
    const header = JSON.parse(bytes.toString('utf8', 0, bytes.indexOf(10))) as { trees: Record<string, [number, number]> };
    const [start, end] = header.trees['process']!;
    bytes.fill(0x20, start, end);
    writeFileSync(cache, bytes);
    writeFiles(dir, { 'processes/deploy.md': processDoc('Deploy', 'Edited twice.\n') });
    git('add', '-A');
    const damaged = both(dir);
    expect(damaged.listed).toBe(true);
    expect(damaged.stdout).toContain('processes/deploy.md\n  2:7 Unexpected duplicate process name `Deploy`');
    writeFiles(dir, { 'processes/deploy.md': processDoc('Deploy', 'Edited thrice.\n') });
    git('add', '-A');
    expect(both(dir).listed).toBe(false);
  });
});
