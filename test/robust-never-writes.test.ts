/**
 * docgate never writes, moves or deletes content files (SPEC §5): a copied root — the bundled content plus
 * broken documents, a directory named like a document and a symlink — is hashed file by file, with its
 * folder listing, before and after full lints (stylish and json, with and without --cache) and pre-commit
 * runs (a real temporary git repository with docgate's hook, as in precommit.test.ts), and found unchanged.
 * `--cache` writes its cache file, which lives outside the content folders and is left out of the snapshot.
 * (The MCP session belongs here too; see docs/reliability.md, "MCP server".)
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, fixture, gitEnv, installHookRepo, runCli } from './helpers.js';

const CONTENT = ['templates', 'frameworks', 'processes', 'docs'];
const repo = realpathSync(mkdtempSync(join(tmpdir(), 'docgate-nowrite-')));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

/** Every entry under the content folders: path, type, mode, size and a hash of the bytes (or link target). */
function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    const abs = join(repo, rel);
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) out[rel] = `link ${readlinkSync(abs)}`;
    else if (st.isDirectory()) {
      out[rel] = `dir ${st.mode.toString(8)}`;
      for (const name of readdirSync(abs).sort()) walk(`${rel}/${name}`);
    } else out[rel] = `file ${st.mode.toString(8)} ${st.size} ${createHash('sha256').update(readFileSync(abs)).digest('hex')}`;
  };
  for (const c of CONTENT) walk(c);
  return out;
}

const env = gitEnv();
const git = (...args: string[]): string => execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' });

let before: Record<string, string>;

beforeAll(() => {
  for (const c of CONTENT) cpSync(join(REPO, c), join(repo, c), { recursive: true });
  // Broken documents of several sorts, so that every code path that reports runs.
  for (const c of ['bom', 'invalid-utf8', 'alias-bomb', 'deep-yaml', 'unterminated', 'not-mapping']) {
    for (const kind of ['processes', 'docs/sysrs']) {
      const from = fixture('robust', c, kind);
      if (!existsSync(from)) continue;
      for (const f of readdirSync(from).filter((n) => n.endsWith('.md'))) cpSync(join(from, f), join(repo, kind, `${c}-${f}`));
    }
  }
  mkdirSync(join(repo, 'processes', 'folder.md'));
  writeFileSync(join(repo, 'processes', 'folder.md', 'inside.txt'), 'not a document\n');
  symlinkSync('code-review.md', join(repo, 'processes', 'alias.md'));
  installHookRepo(repo, env);
  before = snapshot();
});

describe('docgate never writes content files', () => {
  it('the snapshot covers what it should', () => {
    expect(Object.keys(before).length).toBeGreaterThan(30);
    expect(before['processes/folder.md']).toMatch(/^dir /);
    expect(before['processes/alias.md']).toBe('link code-review.md');
    expect(before['processes/bom-code-review.md']).toMatch(/^file /);
  });

  it('full lints: stylish and json, with and without --cache (cold and warm), other formats to files', () => {
    const runs = [
      ['lint'],
      ['lint', '--format', 'json'],
      ['lint', '--cache'],
      ['lint', '--cache'],
      ['lint', '--cache', '--format', 'json'],
      ['lint', '--format', 'sarif', '--output', join(repo, 'reports', 'docgate.sarif'), '--format', 'junit', '--output', join(repo, 'reports', 'junit.xml')],
      ['lint', 'processes', 'docs/sysrs/bom-docgate-mcp-server.md'],
    ];
    for (const args of runs) {
      const r = runCli([...args, '--root', repo], { cwd: repo });
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(1);
      expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
      expect(snapshot(), args.join(' ')).toEqual(before);
    }
    expect(existsSync(join(repo, '.docgatecache'))).toBe(true);
  });

  it('pre-commit runs: a refused commit and an accepted one leave every content file as it was', () => {
    const commit = (message: string): { code: number | null; output: string } => {
      const r = spawnSync('git', ['commit', '-m', message], { cwd: repo, env, encoding: 'utf8' });
      return { code: r.status, output: `${r.stdout}${r.stderr}` };
    };
    // A broken staged file: refused by the hook.
    const broken = '---\nname: Broken\nowner: nobody\n---\n# Broken\n\nBody.\n';
    writeFileSync(join(repo, 'processes', 'broken.md'), broken);
    git('add', 'processes/broken.md');
    const snapBroken = snapshot();
    const refused = commit('broken');
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('processes/broken.md');
    expect(snapshot()).toEqual(snapBroken);

    // Fixed: accepted; content still byte-identical to what was written.
    writeFileSync(join(repo, 'processes', 'broken.md'), broken.replace('owner: nobody\n', ''));
    git('add', 'processes/broken.md');
    const snapFixed = snapshot();
    const accepted = commit('fixed');
    expect(accepted.code, accepted.output).toBe(0);
    expect(snapshot()).toEqual(snapFixed);
    const { ['processes/broken.md']: added, ...rest } = snapFixed;
    expect(added).toMatch(/^file /);
    expect(rest).toEqual(before);
  });
});
