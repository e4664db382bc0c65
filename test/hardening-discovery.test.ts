/**
 * Issue 25, discovery: which files are documents, found how. A link loop under `**` ends (item 2); no
 * file in `.git`, and no file git ignores, is a document for lint or the MCP server (4); every include
 * glob of a kind finds its documents, whatever the order (7); `..` hidden in braces is refused (12); the
 * alternatives of a whole configuration are bounded (13). The CLI and the MCP server run BUILT, as child
 * processes; a test that would hang on the old code has a timeout.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMcp, structuredOf, textOf } from './fixtures/mcp/harness.js';
import { BIN, REPO, gitEnv, writeFiles } from './helpers.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh root holding `files` (its real path: the server reports real paths). */
function root(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'docgate-discovery-')));
  made.push(dir);
  writeFiles(dir, files);
  return dir;
}

function link(dir: string, path: string, target: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  symlinkSync(target, join(dir, path));
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI, bounded by a timeout: a hang ends as a failed run (code null), not a stuck suite. */
function cli(args: string[], o: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Run {
  const env = { ...gitEnv(), ...o.env };
  delete env.GITHUB_STEP_SUMMARY;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: o.cwd ?? REPO, env, encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function lintJson(dir: string, ...args: string[]): { code: number | null; checked: number; paths: string[]; stderr: string } {
  const r = cli(['lint', '--root', dir, '--format', 'json', ...args]);
  if (r.code === null) return { code: null, checked: -1, paths: [], stderr: r.stderr };
  const report = JSON.parse(r.stdout) as { filesChecked: number; results: { path: string }[] };
  return { code: r.code, checked: report.filesChecked, paths: report.results.map((x) => x.path), stderr: r.stderr };
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: gitEnv(), encoding: 'utf8' });
}

const processDoc = (name: string): string =>
  `---\nname: ${name}\ndescription: How the team does ${name.toLowerCase()}, step by step, so that nobody has to guess\n---\n\n# ${name}\n\n## Steps\n\n1. Do it.\n`;

/** A kind of the root's own, `note`: any mapping of frontmatter, ids from the file name or from `id`. */
function noteKind(include: readonly string[], id: 'stem' | 'frontmatter' = 'stem'): Record<string, string> {
  return {
    'docgate.config.yaml': `kinds:\n  note:\n    include: ${JSON.stringify(include)}\n    id: ${id}\n    frontmatter: note.schema.json\n`,
    'schemas/note.schema.json': JSON.stringify({ type: 'object', properties: { id: { type: 'string' } } }),
  };
}
const note = (text: string, id?: string): string => `---\n${id !== undefined ? `id: ${id}\n` : ''}x: 1\n---\n\n# ${text}\n`;

describe('item 2: a symlink loop under a `**` include ends, each real folder listed once', () => {
  /** `processes/**‍/*.md` over two documents, with `a -> .` and `b -> .` in the folder (2^40 paths on the old code). */
  function loopRoot(): string {
    const dir = root({
      'docgate.config.yaml': 'kinds:\n  process:\n    include: ["processes/**/*.md"]\n',
      'processes/deploy.md': processDoc('Deploy'),
      'processes/sub/hotfix.md': processDoc('Hotfix'),
    });
    link(dir, 'processes/a', '.');
    link(dir, 'processes/b', '.');
    link(dir, 'processes/sub/up', '..');
    return dir;
  }

  it('lint with `a -> .` and `b -> .` ends, and checks each document once (no duplicate of itself)', () => {
    const r = lintJson(loopRoot());
    expect(r.code).toBe(0);
    expect(r.checked).toBe(2);
    expect(r.paths).toEqual([]);
  }, 30_000);

  it('a folder reached by its own path and through a link is listed by its own path', () => {
    const dir = root({
      'docgate.config.yaml': 'kinds:\n  process:\n    include: ["processes/**/*.md"]\n',
      'processes/sub/hotfix.md': processDoc('Hotfix'),
    });
    link(dir, 'processes/alias', 'sub'); // sorts before `sub`: the old code listed both, a duplicate of itself
    const r = cli(['lint', '--root', dir, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ filesChecked: 1, results: [] });
    // Named by the linked path, it is the document found by its own path.
    const named = cli(['lint', '--root', dir, '--format', 'json', 'processes/alias/hotfix.md'], { cwd: dir });
    expect(named.stderr).toBe('');
    expect(JSON.parse(named.stdout)).toMatchObject({ filesChecked: 1, results: [] });
  }, 30_000);

  it('MCP list_documents answers over the loop, each document once', async () => {
    const s = await startMcp(loopRoot());
    try {
      const page = structuredOf<{ results: { path: string }[]; total: number }>(await s.call('list_documents', { kind: 'process' }));
      expect(page.results.map((x) => x.path)).toEqual(['processes/deploy.md', 'processes/sub/hotfix.md']);
      expect(page.total).toBe(2);
    } finally {
      await s.close();
    }
  }, 30_000);
});

describe('item 4: nothing in `.git`, and nothing git ignores, is a document', () => {
  const TOKEN = 'ghs_SECRETTOKEN0123456789';

  it('an include glob naming `.git` is a configuration error positioned in the config (exit 2), for lint and for MCP', async () => {
    const dir = root({ ...noteKind(['.git/config', '.gi[t]/HEAD', 'notes/*.md']), 'notes/a.md': note('A') });
    git(dir, 'init', '-q');
    git(dir, 'config', 'http.extraheader', `AUTHORIZATION: basic ${TOKEN}`);
    const r = cli(['lint', '--root', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        'docgate: docgate.config.yaml:3:15 Unexpected glob `.git/config` (it names a path inside `.git`, which is never a document), expected a root-relative glob such as `processes/*.md`',
        'docgate.config.yaml:3:29 Unexpected glob `.gi[t]/HEAD` (it names a path inside `.git`, which is never a document), expected a root-relative glob such as `processes/*.md`',
        '',
      ].join('\n'),
    );
    const s = await startMcp(dir);
    try {
      const listed = await s.call('list_documents', { kind: 'note' });
      expect(listed.isError).toBe(true);
      expect(textOf(listed)).toContain('Unexpected glob `.git/config`');
      const got = await s.call('get_document', { kind: 'note', id: 'config' });
      expect(JSON.stringify(got)).not.toContain(TOKEN);
    } finally {
      await s.close();
    }
  }, 30_000);

  /** A git work tree whose `.gitignore` ignores `.env` and `notes/b.md`; `notes/c.md` links to `.env`. */
  function ignoringRoot(): string {
    const dir = root({
      ...noteKind(['.env', 'notes/*.md']),
      '.env': `TOKEN=${TOKEN}\n`,
      '.gitignore': '.env\nnotes/b.md\n',
      'notes/a.md': note('A'),
      'notes/b.md': note(`B ${TOKEN}`),
    });
    link(dir, 'notes/c.md', '../.env');
    return dir;
  }

  it('lint: a file git ignores is not linted (a named one is warned of), a link to one is a broken link; outside a work tree nothing is ignored', () => {
    const dir = ignoringRoot();
    // Not yet a git work tree: .gitignore means nothing, every file is a document.
    expect(lintJson(dir).checked).toBe(4);
    git(dir, 'init', '-q');
    const all = cli(['lint', '--root', dir, '--format', 'json']);
    expect(all.code).toBe(1);
    const report = JSON.parse(all.stdout) as { filesChecked: number; results: { path: string; diagnostics: { rule: string }[] }[] };
    expect(report.filesChecked).toBe(2); // notes/a.md, and the link notes/c.md
    expect(report.results.map((x) => [x.path, x.diagnostics.map((d) => d.rule)])).toEqual([['notes/c.md', ['file-read']]]);
    expect(all.stdout).not.toContain(TOKEN);
    const named = cli(['lint', '--root', dir, '.env', 'notes/b.md', 'notes/a.md'], { cwd: dir });
    expect(named.code).toBe(0);
    expect(named.stderr).toBe(
      [
        'docgate: warning: .env is ignored by git (`git check-ignore -v .env` names the rule)',
        'docgate: warning: notes/b.md is ignored by git (`git check-ignore -v notes/b.md` names the rule)',
        '',
      ].join('\n'),
    );
    expect(named.stdout).toBe('0 problems in 0 files (1 file checked)\n');
    const config = JSON.parse(cli(['lint', '--root', dir, '--print-config', '.env'], { cwd: dir }).stdout) as { kind: string; ignored: boolean };
    expect(config).toMatchObject({ kind: 'note', ignored: true });
    expect(cli(['lint', '--root', dir, '.git/config'], { cwd: dir }).stderr).toBe(
      'docgate: warning: .git/config is in a `.git` folder, which holds no documents\n',
    );
  }, 30_000);

  it('MCP: list_documents and get_document never serve a file git ignores, nor one a link to it leads to', async () => {
    const dir = ignoringRoot();
    git(dir, 'init', '-q');
    const s = await startMcp(dir);
    try {
      const page = structuredOf<{ results: { path: string; error: string | null }[] }>(await s.call('list_documents', { kind: 'note' }));
      expect(page.results.map((x) => x.path)).toEqual(['notes/a.md', 'notes/c.md']);
      expect(page.results[1]!.error).toBe('1:1 Unexpected entry that cannot be read (broken link?), expected a readable file [file-read]');
      for (const id of ['.env', 'b', 'c']) expect(JSON.stringify(await s.call('get_document', { kind: 'note', id }))).not.toContain(TOKEN);
      const prompt = await s.client.getPrompt({ name: 'repair', arguments: { path: 'notes/c.md' } });
      expect(JSON.stringify(prompt)).not.toContain(TOKEN);
      await expect(s.client.getPrompt({ name: 'repair', arguments: { path: '.env' } })).rejects.toThrow('git ignores it');
    } finally {
      await s.close();
    }
  }, 30_000);

  it('MCP: a long-lived server sees the root .gitignore change, outside every folder it watches', async () => {
    const dir = root({ ...noteKind(['notes/*.md']), '.gitignore': '.env\n', 'notes/a.md': note('A'), 'notes/b.md': note(`B ${TOKEN}`) });
    git(dir, 'init', '-q');
    const s = await startMcp(dir);
    try {
      const list = async (): Promise<string[]> =>
        structuredOf<{ results: { path: string }[] }>(await s.call('list_documents', { kind: 'note' })).results.map((x) => x.path);
      expect(await list()).toEqual(['notes/a.md', 'notes/b.md']);
      expect(await list()).toEqual(['notes/a.md', 'notes/b.md']);
      appendFileSync(join(dir, '.gitignore'), 'notes/b.md\n');
      expect(await list()).toEqual(['notes/a.md']);
      expect(JSON.stringify(await s.call('get_document', { kind: 'note', id: 'b' }))).not.toContain(TOKEN);
      writeFileSync(join(dir, '.gitignore'), '.env\n');
      expect(await list()).toEqual(['notes/a.md', 'notes/b.md']);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('lint --cache over named files: a listing kept in the cache is not reused once .gitignore changed', () => {
    const dir = root({
      ...noteKind(['notes/*.md'], 'frontmatter'),
      '.gitignore': '.docgatecache\n',
      'notes/a.md': note('A', 'N-1'),
      'notes/b.md': note('B', 'N-1'),
    });
    git(dir, 'init', '-q');
    // Settled long ago, so the first run keeps its listing (a folder changed within the racy window is never kept).
    const old = new Date(Date.now() - 3_600_000);
    for (const p of ['notes/a.md', 'notes/b.md', 'notes', '.gitignore', '.git/info/exclude']) utimesSync(join(dir, p), old, old);
    const first = cli(['lint', '--root', dir, '--cache', 'notes/a.md'], { cwd: dir });
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('note-duplicate-id');
    expect(JSON.parse(readFileSync(join(dir, '.docgatecache'), 'utf8').split('\n')[0]!)).toHaveProperty(['listings', 'note']);
    appendFileSync(join(dir, '.gitignore'), 'notes/b.md\n');
    const second = cli(['lint', '--root', dir, '--cache', 'notes/a.md'], { cwd: dir });
    expect(second.stdout).toBe('0 problems in 0 files (1 file checked)\n');
    expect(second.code).toBe(0);
  }, 30_000);
});

describe('item 7: every include glob of a kind finds its documents, in any order', () => {
  it('`processes/*.md` and `processes/*.markdown`: lint, a named file, --print-config and --staged agree', () => {
    const dir = root({
      'docgate.config.yaml': 'kinds:\n  process:\n    include: ["processes/*.md", "processes/*.markdown"]\n',
      'processes/deploy.md': processDoc('Deploy'),
      'processes/hotfix.markdown': processDoc('Deploy'), // a duplicate name: found only if the second glob is
    });
    const whole = lintJson(dir);
    expect(whole).toMatchObject({ code: 1, checked: 2, paths: ['processes/deploy.md', 'processes/hotfix.markdown'] });
    const named = lintJson(dir, join(dir, 'processes/hotfix.markdown'));
    expect(named).toMatchObject({ code: 1, checked: 1, paths: ['processes/hotfix.markdown'] });
    expect(JSON.parse(cli(['lint', '--root', dir, '--print-config', join(dir, 'processes/hotfix.markdown')]).stdout)).toMatchObject({
      kind: 'process',
      ignored: false,
    });
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    expect(lintJson(dir, '--staged')).toMatchObject({ code: 1, checked: 2, paths: ['processes/deploy.md', 'processes/hotfix.markdown'] });
  }, 30_000);

  it('`**/skills/*/SKILL.md` with `template/SKILL.md`: the same documents in either order', () => {
    const files = { 'skills/a/SKILL.md': note('A'), 'tools/skills/b/SKILL.md': note('B'), 'template/SKILL.md': note('Template') };
    const first = root({ ...noteKind(['**/skills/*/SKILL.md', 'template/SKILL.md']), ...files });
    const second = root({ ...noteKind(['template/SKILL.md', '**/skills/*/SKILL.md']), ...files });
    // Stem ids: all three are `SKILL`, so every document found is reported, by path.
    const expected = ['skills/a/SKILL.md', 'template/SKILL.md', 'tools/skills/b/SKILL.md'];
    expect(lintJson(first)).toMatchObject({ checked: 3, paths: expected });
    expect(lintJson(second)).toMatchObject({ checked: 3, paths: expected });
  }, 30_000);
});

describe('item 12: `..` hidden in braces is refused after expansion', () => {
  it('`{..,y}/x/*` is a configuration error naming the alternative, positioned in the config (exit 2)', () => {
    const dir = root({ 'docgate.config.yaml': 'kinds:\n  process:\n    include: ["{..,y}/x/*"]\n' });
    const r = cli(['lint', '--root', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'docgate: docgate.config.yaml:3:15 Unexpected glob `{..,y}/x/*` (its alternative `../x/*` climbs out of the root with `..`), expected a root-relative glob such as `processes/*.md`\n',
    );
  });
});

describe('item 13: the alternatives of a whole configuration are bounded', () => {
  /** `n` globs of 256 alternatives each (eight two-way braces), in one flow list on line 1. */
  const globs = (n: number): string[] => Array.from({ length: n }, (_, i) => `{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}/${i}`);
  const config = (list: string[]): string => `ignores: [${list.map((g) => JSON.stringify(g)).join(',')}]\n`;

  it('1,363 globs of 256 alternatives (a 64 KB config): one configuration error at the glob past 1,024 in all (exit 2); 1,024 are accepted', () => {
    const list = globs(1363);
    const text = config(list);
    expect(text.length).toBeGreaterThan(64_000);
    const dir = root({ 'docgate.config.yaml': text });
    const r = cli(['lint', '--root', dir]);
    expect(r.code).toBe(2);
    const column = text.indexOf(JSON.stringify(list[4])) + 1;
    expect(r.stderr).toBe(
      `docgate: docgate.config.yaml:1:${column} Unexpected glob \`${list[4]}\` (the configuration's globs expand to more than 1024 alternatives in all), expected a root-relative glob such as \`processes/*.md\`\n`,
    );
    // Four such globs are 1,024 alternatives: within the bound.
    const within = root({ 'docgate.config.yaml': config(globs(4)), 'processes/deploy.md': processDoc('Deploy') });
    expect(cli(['lint', '--root', within])).toEqual({ code: 0, stdout: '0 problems in 0 files (1 file checked)\n', stderr: '' });
  });
});
