import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedRepo, gitEnv, powerTemplate, runCli, writeFiles } from './helpers.js';

/**
 * `docgate lint --staged` agrees with `lint` (issue 25, items 10 and 14), in real git repositories
 * through the CLI: a kind folder that is a symbolic link, a link leaving the root, link loops, an
 * intent-to-add entry, a path in conflict, and one index listing however many links there are.
 */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const env = gitEnv();

function processDoc(name: string, extra = ''): string {
  return `---\nname: ${name}\n${extra}description: How we do it.\n---\n# ${name}\n\nStep one.\n`;
}

function repo(files: Record<string, string>): { dir: string; git: (...args: string[]) => string } {
  return committedRepo('docgate-hardening-staged-', files, made, env);
}

function staged(dir: string, ...extra: string[]) {
  return runCli(['lint', '--staged', ...extra], { cwd: dir, env });
}

function lint(dir: string) {
  return runCli(['lint'], { cwd: dir, env });
}

/** A folder outside every repository, holding a document. */
function outsideFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docgate-outside-'));
  made.push(dir);
  writeFileSync(join(dir, 'x.md'), processDoc('Outside'));
  return dir;
}

describe('lint --staged: symbolic links as lint sees them (item 10)', () => {
  it('lints a kind folder that is a link inside the root (processes -> handbook) as lint does, when the link or only its target is staged', () => {
    const { dir, git } = repo({ 'handbook/deploy.md': processDoc('Deploy', 'owner: ops\n') });
    symlinkSync('handbook', join(dir, 'processes'));
    git('add', '-A');
    const expected =
      'processes/deploy.md\n  3:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]\n\n1 problem in 1 file (1 file checked)\n';
    // The commit that adds the link.
    const adding = staged(dir);
    expect(adding.code, adding.stdout).toBe(1);
    expect(adding.stdout).toBe(expected);
    expect(lint(dir).stdout).toBe(expected);
    git('commit', '-q', '--no-verify', '-m', 'link');
    // A commit that changes only the target (no path of the processes folder changes in git's eyes).
    writeFiles(dir, { 'handbook/deploy.md': processDoc('Deploy', 'owner: dev\n') });
    git('add', '-A');
    expect(staged(dir)).toEqual({ code: 1, stdout: expected, stderr: '' });
    expect(staged(dir, '--cache')).toEqual({ code: 1, stdout: expected, stderr: '' });
    expect(staged(dir, '--cache')).toEqual({ code: 1, stdout: expected, stderr: '' });
    expect(lint(dir).stdout).toBe(expected);
    // Fixed in the target: the hook lets it through, as CI would.
    writeFiles(dir, { 'handbook/deploy.md': processDoc('Deploy') });
    git('add', '-A');
    expect(staged(dir, '--cache')).toEqual({ code: 0, stdout: '0 problems in 0 files (1 file checked)\n', stderr: '' });
    expect(lint(dir).code).toBe(0);
  });

  it("does not answer from HEAD's kept tree (--cache) while a linked kind folder has a staged change", () => {
    const { dir, git } = repo({
      'handbook/deploy.md': processDoc('Deploy'),
      'templates/power/readme.txt': powerTemplate('readme', 'readme_summary'),
    });
    symlinkSync('handbook', join(dir, 'processes'));
    git('add', '-A');
    git('commit', '-q', '--no-verify', '-m', 'link');
    // A template body edit (the common commit) and a broken document behind the link, in one commit.
    writeFiles(dir, {
      'templates/power/readme.txt': powerTemplate('readme', 'readme_summary').replace('Keep it short.', 'Keep it brief.'),
      'handbook/deploy.md': processDoc('Deploy', 'owner: ops\n'),
    });
    git('add', '-A');
    const expected =
      'processes/deploy.md\n  3:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]\n\n1 problem in 1 file (2 files checked)\n';
    // The first run keeps the template kind's results for HEAD's tree; the second must not answer from them alone.
    expect(staged(dir, '--cache')).toEqual({ code: 1, stdout: expected, stderr: '' });
    expect(staged(dir, '--cache')).toEqual({ code: 1, stdout: expected, stderr: '' });
  });

  it('fails a kind folder or language folder linked out of the root with file-symlink, as lint does', () => {
    const outside = outsideFolder();
    const { dir, git } = repo({});
    mkdirSync(join(dir, 'docs/sysrs'), { recursive: true });
    // One absolute, one relative link: both leave the root (lint needs their targets to exist to see folders).
    symlinkSync(outside, join(dir, 'frameworks'));
    symlinkSync(`../../../${basename(outside)}`, join(dir, 'docs/sysrs/de'));
    git('add', '-A');
    const r = staged(dir);
    const expected = [
      'docs/sysrs/de\n  1:1 Unexpected folder that resolves outside the root (through a symbolic link), expected the sysrs folder inside the root [file-symlink]',
      'frameworks\n  1:1 Unexpected folder that resolves outside the root (through a symbolic link), expected the framework folder inside the root [file-symlink]',
      '2 problems in 2 files (2 files checked)\n',
    ].join('\n\n');
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toBe(expected);
    expect(lint(dir).stdout).toBe(expected);
  });

  it('follows linked folders through loops of links to an end (each real folder listed once), and fails a cycle between documents as unreadable', {
    timeout: 20_000,
  }, () => {
    const { dir, git } = repo({ 'docgate.config.yaml': 'kinds:\n  process:\n    include: ["processes/**/*.md"]\n' });
    writeFiles(dir, { 'processes/sub/deploy.md': processDoc('Deploy', 'owner: ops\n'), 'handbook/guide.md': processDoc('Guide', 'owner: docs\n') });
    symlinkSync('.', join(dir, 'processes/a'));
    symlinkSync('.', join(dir, 'processes/b'));
    symlinkSync('..', join(dir, 'processes/sub/up'));
    symlinkSync('../handbook', join(dir, 'processes/linked'));
    symlinkSync('.', join(dir, 'handbook/again'));
    symlinkSync('y.md', join(dir, 'processes/x.md'));
    symlinkSync('x.md', join(dir, 'processes/y.md'));
    git('add', '-A');
    const r = staged(dir);
    expect(r.code, r.stdout).toBe(1);
    // Each document once: the guide only through the linked folder, nothing through a loop.
    expect(r.stdout).toBe(
      [
        'processes/linked/guide.md\n  3:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]',
        'processes/sub/deploy.md\n  3:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]',
        'processes/x.md\n  1:1 Unexpected entry that cannot be read (broken link?), expected a readable file [file-read]',
        'processes/y.md\n  1:1 Unexpected entry that cannot be read (broken link?), expected a readable file [file-read]',
        '4 problems in 4 files (4 files checked)\n',
      ].join('\n\n'),
    );
  });
});

describe('lint --staged: what the commit holds (item 10)', () => {
  it('treats a `git add -N` entry as not in the commit: not linted, the commit not blocked, a real empty file still is', () => {
    const { dir, git } = repo({ 'processes/deploy.md': processDoc('Deploy') });
    writeFiles(dir, { 'processes/draft.md': 'not yet\n' });
    git('add', '-N', 'processes/draft.md');
    const r = staged(dir);
    expect(r).toEqual({ code: 0, stdout: '0 problems in 0 files (0 files checked)\n', stderr: '' });
    // Another change to the kind lists the index: the intent-to-add entry is still no document.
    writeFiles(dir, { 'processes/deploy.md': processDoc('Deploy', 'owner: ops\n') });
    git('add', 'processes/deploy.md');
    const listed = staged(dir, '--format', 'json');
    expect(JSON.parse(listed.stdout)).toMatchObject({ filesChecked: 1, results: [{ path: 'processes/deploy.md' }] });
    // An empty file really added is linted (it is the empty blob too, like the intent-to-add entry).
    writeFiles(dir, { 'processes/empty.md': '' });
    git('add', 'processes/empty.md');
    const both = staged(dir, '--format', 'json');
    const paths = (JSON.parse(both.stdout) as { results: { path: string }[] }).results.map((x) => x.path);
    expect(paths).toEqual(['processes/deploy.md', 'processes/empty.md']);
  });

  it('names a document in conflict (file-unmerged) and does not blame its users', () => {
    const readme = (summary: string) => powerTemplate('readme', 'readme_summary').replace('Keep it short.', summary);
    const { dir, git } = repo({
      'templates/power/readme.txt': readme('Keep it short.'),
      'templates/power/api.txt': powerTemplate('api', 'api_summary', '{{readme_summary}}'),
    });
    git('checkout', '-q', '-b', 'other');
    writeFiles(dir, { 'templates/power/readme.txt': readme('Keep it very short.') });
    git('commit', '-q', '--no-verify', '-am', 'theirs');
    git('checkout', '-q', 'main');
    writeFiles(dir, { 'templates/power/readme.txt': readme('Keep it brief.') });
    git('commit', '-q', '--no-verify', '-am', 'ours');
    expect(() => git('merge', '-q', 'other')).toThrow();
    expect(git('ls-files', '-u')).toContain('templates/power/readme.txt');
    const r = staged(dir);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toBe(
      'templates/power/readme.txt\n  1:1 Unexpected unmerged file, expected a merged file: resolve the conflict first [file-unmerged]\n\n1 problem in 1 file (1 file checked)\n',
    );
    expect(staged(dir, '--cache').stdout).toBe(r.stdout);
  });
});

describe('lint --staged: one index listing (item 14)', () => {
  it('lists the index once, however many links point out of the kind folders', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i++) files[`handbook/p${i}.md`] = processDoc(`P${i}`);
    const { dir, git } = repo(files);
    mkdirSync(join(dir, 'processes'));
    for (let i = 0; i < 6; i++) symlinkSync(`../handbook/p${i}.md`, join(dir, `processes/p${i}.md`));
    writeFiles(dir, { 'handbook/p0.md': processDoc('P0', 'owner: ops\n') });
    git('add', '-A');
    const trace = join(dir, '..', `${dir.split('/').pop()}-trace.log`);
    made.push(trace);
    const r = runCli(['lint', '--staged'], { cwd: dir, env: { ...env, GIT_TRACE: trace } });
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toContain('processes/p0.md\n  3:1 Unexpected key `owner`');
    expect(r.stdout).toContain('1 problem in 1 file (6 files checked)');
    const listings = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => /\bgit ls-files\b/.test(line));
    expect(listings).toHaveLength(1);
  });
});
