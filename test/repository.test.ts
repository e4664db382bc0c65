import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessDoc } from '../src/model/analysis.js';
import { Repository } from '../src/lint/repository.js';
import { REPO } from './helpers.js';

const base = mkdtempSync(join(tmpdir(), 'docgate-repo-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let root = '';
let n = 0;
let repo: Repository;

const processText = (name: string) => `---\nname: ${name}\ndescription: d\n---\n# ${name}\n\nBody.\n`;

beforeEach(() => {
  root = join(base, `r${n++}`);
  mkdirSync(join(root, 'processes'), { recursive: true });
  writeFileSync(join(root, 'processes', 'alpha.md'), processText('Alpha'));
  repo = new Repository(root, { watch: true });
});
afterEach(() => repo.close());

async function names(): Promise<string[]> {
  await repo.settle();
  return repo.entries('process').map((e) => (e.failure ? `failed:${e.failure.diagnostics[0]!.rule}` : (repo.document(e) as ProcessDoc).name));
}

describe('Repository (the MCP server’s live view)', () => {
  it('returns the same entries while nothing changes', async () => {
    const first = (await repo.settle(), repo.entries('process'));
    expect(first.length).toBe(1);
    expect((await repo.settle(), repo.entries('process'))).toBe(first);
  });

  it('trusts a language folder seen first in a scan when it is as it was listed, and scans again when it may not be', async () => {
    const sysrs = join(root, 'docs', 'sysrs');
    mkdirSync(join(sysrs, 'de'), { recursive: true });
    writeFileSync(join(sysrs, 'a.md'), 'not a SysRS\n');
    writeFileSync(join(sysrs, 'de', 'a.md'), 'kein SysRS\n');
    // Changed an hour ago: its listing vouches for it once its watch has begun, so the next call answers from memory.
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(sysrs, 'de'), hourAgo, hourAgo);
    const first = (await repo.settle(), repo.entries('sysrs'));
    expect(first.map((e) => e.ref.path)).toEqual(['docs/sysrs/a.md', 'docs/sysrs/de/a.md']);
    expect((await repo.settle(), repo.entries('sysrs'))).toBe(first);
    // A language folder changed just now (within the racy window): the next call scans the kind again, once.
    const fresh = new Repository(root, { watch: true });
    try {
      writeFileSync(join(sysrs, 'de', 'b.md'), 'kein SysRS\n');
      const before = (await fresh.settle(), fresh.entries('sysrs'));
      const again = (await fresh.settle(), fresh.entries('sysrs'));
      expect(again).not.toBe(before);
      expect(again.map((e) => e.ref.path)).toEqual(['docs/sysrs/a.md', 'docs/sysrs/de/a.md', 'docs/sysrs/de/b.md']);
      expect((await fresh.settle(), fresh.entries('sysrs'))).toBe(again);
    } finally {
      fresh.close();
    }
  });

  it('sees every change made between two calls, also in-place rewrites of the same size', async () => {
    expect(await names()).toEqual(['Alpha']);
    // Same size, written within the same clock tick: size and mtime can stay equal, the watcher still tells.
    for (const name of Array.from({ length: 40 }, (_, i) => `N${String(i).padStart(4, '0')}`)) {
      writeFileSync(join(root, 'processes', 'alpha.md'), processText(name));
      expect(await names()).toEqual([name]);
    }
  });

  it('sees added and deleted files, and failures caused by another file (cross-file)', async () => {
    expect(await names()).toEqual(['Alpha']);
    writeFileSync(join(root, 'processes', 'beta.md'), processText('ALPHA'));
    expect(await names()).toEqual(['failed:process-duplicate-name', 'failed:process-duplicate-name']);
    unlinkSync(join(root, 'processes', 'beta.md'));
    expect(await names()).toEqual(['Alpha']);
  });

  it('keeps its project while the files it was made from are unchanged, and sees a heading table edited in place', () => {
    const past = (seconds: number): Date => new Date(Date.now() - seconds * 1000);
    const table = join(root, 'schemas', 'sysrs-headings.de.json');
    mkdirSync(join(root, 'schemas'));
    writeFileSync(table, readFileSync(join(REPO, 'schemas', 'sysrs-headings.de.json')));
    for (const p of [table, join(root, 'schemas')]) utimesSync(p, past(60), past(60));
    const first = repo.project();
    expect(first.inputs).toContain(table);
    expect(repo.project()).toBe(first);
    // Edited in place (its folder's identity unchanged): a new project, under a new key.
    writeFileSync(table, readFileSync(table, 'utf8').replace('Systemzweck', 'Zweck des Systems'));
    utimesSync(table, past(30), past(30));
    const second = repo.project();
    expect(second).not.toBe(first);
    expect(second.key).not.toBe(first.key);
    expect(second.key).toContain('Zweck des Systems');
    // Changed within the racy window of its loading: loaded again at every call, never kept.
    writeFileSync(table, readFileSync(table, 'utf8').replace('Zweck des Systems', 'Systemzweck'));
    expect(repo.project()).not.toBe(repo.project());
  });

  it('sees a changed rule file (a root schema override)', async () => {
    writeFileSync(join(root, 'processes', 'alpha.md'), processText('Alpha').replace('description: d', 'description: d\nowner: me'));
    expect(await names()).toEqual(['failed:unknown-key']);
    const schema = JSON.parse(readFileSync(join(REPO, 'schemas', 'process-frontmatter.schema.json'), 'utf8'));
    schema.properties.owner = { type: 'string' };
    mkdirSync(join(root, 'schemas'));
    writeFileSync(join(root, 'schemas', 'process-frontmatter.schema.json'), JSON.stringify(schema));
    expect(await names()).toEqual(['Alpha']);
  });

  it('sees a change to the target of a symlinked document (outside the watched folder, inside the root)', async () => {
    mkdirSync(join(root, 'shared'));
    writeFileSync(join(root, 'shared', 'gamma.md'), processText('Gamma'));
    symlinkSync(join(root, 'shared', 'gamma.md'), join(root, 'processes', 'gamma.md'));
    expect(await names()).toEqual(['Alpha', 'Gamma']);
    writeFileSync(join(root, 'shared', 'gamma.md'), processText('Gamme'));
    expect(await names()).toEqual(['Alpha', 'Gamme']);
  });

  it('works without watching too (every call verifies by stat)', async () => {
    const plain = new Repository(root);
    expect(plain.entries('process').length).toBe(1);
    writeFileSync(join(root, 'processes', 'alpha.md'), processText('Zulu'));
    expect((plain.document(plain.entries('process')[0]!) as ProcessDoc).name).toBe('Zulu');
  });
});

describe('lintRepository (validate over the live repository)', () => {
  it('gives exactly the results of lint, for whole roots and for selected paths', async () => {
    const { lintRoot: lint } = await import('../src/lint/root.js');
    // The MCP validate tool: the lint pipeline over the repository's live memory (paths relative to its root).
    const lintRepository = (live: Repository, paths: string[] = []) => live.lint(paths);
    const { json } = await import('../src/report/json.js');
    const { fixture } = await import('./helpers.js');
    const roots = [REPO, fixture('ci-root'), fixture('mcp', 'content'), fixture('rules', 'process-duplicate-name'), fixture('variants', 'other-id')];
    for (const r of roots) {
      const live = new Repository(r);
      expect(json(await lintRepository(live))).toBe(json(lint({ root: r })));
      for (const paths of [['processes'], ['docs/sysrs'], ['templates/power', 'frameworks']]
        .map((ps) => ps.filter((p) => existsSync(join(r, p))))
        .filter((ps) => ps.length > 0)) {
        expect(json(await lintRepository(live, paths)), `${r} ${paths.join(',')}`).toBe(json(lint({ root: r, paths, cwd: r })));
      }
    }
  });
});
