import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { parseCacheFile, serializeCacheFile } from '../src/core/lint-cache.js';
import type { CacheFile } from '../src/core/lint-cache.js';
import { REPO, fixture, runCli } from './helpers.js';

const base = mkdtempSync(join(tmpdir(), 'docgate-cache-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let root = '';
let cacheFile = '';
let n = 0;

beforeEach(() => {
  root = join(base, `root${n++}`);
  cpSync(fixture('ci-root'), root, { recursive: true });
  cacheFile = join(root, '.docgatecache');
});

function lintJson(...extra: string[]): { code: number | null; stdout: string } {
  const r = runCli(['lint', '--root', root, '--format', 'json', ...extra]);
  return { code: r.code, stdout: r.stdout };
}

type CacheData = CacheFile;
type Entries = Record<string, { diagnostics: { line: number; column: number; rule: string; message: string }[] }>;

function readCache(file = cacheFile): CacheData {
  return parseCacheFile(readFileSync(file))!;
}

function processEntries(c: CacheData): Entries {
  return JSON.parse(String(c.kinds.process!)) as Entries;
}

/** Plants a diagnostic in a cache entry: if it shows up in the output, the entry was replayed. */
function plant(path: string, mutate: (c: CacheData) => void = () => {}): void {
  const c = readCache();
  const entries = processEntries(c);
  entries[path]!.diagnostics = [{ line: 1, column: 1, rule: 'planted', message: 'Unexpected replay' }];
  c.kinds.process = JSON.stringify(entries);
  mutate(c);
  writeFileSync(cacheFile, serializeCacheFile(c));
}

const PROCESS = 'processes/release.md';

describe('docgate lint --cache', () => {
  it('replays byte-identical results, in every format, from the cache', () => {
    const fresh = lintJson();
    const first = lintJson('--cache');
    const replay = lintJson('--cache');
    expect(fresh.code).toBe(1);
    expect(first).toEqual(fresh);
    expect(replay).toEqual(fresh);
    for (const format of ['stylish', 'github', 'junit']) {
      expect(runCli(['lint', '--root', root, '--format', format, '--cache']).stdout).toBe(runCli(['lint', '--root', root, '--format', format]).stdout);
    }
  });

  it('really skips unchanged files (a planted entry is replayed)', () => {
    lintJson('--cache');
    expect(Object.keys(processEntries(readCache()))).toContain(PROCESS);
    plant(PROCESS);
    expect(lintJson('--cache').stdout).toContain('Unexpected replay');
  });

  it('notices a changed file', () => {
    lintJson('--cache');
    plant(PROCESS);
    const file = join(root, PROCESS);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^owner:.*\n/m, ''));
    const out = lintJson('--cache').stdout;
    expect(out).not.toContain('Unexpected replay');
    expect(out).not.toContain(PROCESS);
    expect(lintJson('--cache')).toEqual(lintJson());
  });

  it('notices a changed schema (a root override)', () => {
    lintJson('--cache');
    plant(PROCESS);
    mkdirSync(join(root, 'schemas'), { recursive: true });
    const schema = JSON.parse(readFileSync(join(REPO, 'schemas', 'process-frontmatter.schema.json'), 'utf8'));
    schema.properties.owner = { type: 'string', description: 'the owning team' };
    writeFileSync(join(root, 'schemas', 'process-frontmatter.schema.json'), JSON.stringify(schema));
    const out = lintJson('--cache').stdout;
    expect(out).not.toContain('Unexpected replay');
    expect(JSON.parse(out).results.map((r: { path: string }) => r.path)).not.toContain(PROCESS);
  });

  it('notices a new docgate version', () => {
    lintJson('--cache');
    plant(PROCESS, (c) => (c.docgate = '0.0.0-older'));
    const out = lintJson('--cache');
    expect(out.stdout).not.toContain('Unexpected replay');
    expect(out).toEqual(lintJson());
    expect(readCache().docgate).toBe(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version);
  });

  it('lints one staged file from the cache: other files feed cross-file rules unread, yet a changed one is re-read', () => {
    lintJson('--cache');
    const one = runCli(['lint', '--root', root, '--format', 'json', '--cache', join(root, PROCESS)]);
    expect(JSON.parse(one.stdout).filesChecked).toBe(1);
    // Another process takes the same name: the staged file must see it although it is not linted.
    const other = join(root, 'processes', 'code-review.md');
    const name = /^name: (.*)$/m.exec(readFileSync(join(root, PROCESS), 'utf8'))![1]!;
    writeFileSync(other, readFileSync(other, 'utf8').replace(/^name: .*$/m, `name: ${name.toUpperCase()}`));
    const again = JSON.parse(runCli(['lint', '--root', root, '--format', 'json', '--cache', join(root, PROCESS)]).stdout);
    expect(again.results[0].diagnostics.map((d: { rule: string }) => d.rule)).toContain('process-duplicate-name');
  });

  it('writes the cache where --cache-location says', () => {
    const elsewhere = join(base, `elsewhere-${n}`, 'cache.json');
    lintJson('--cache', '--cache-location', elsewhere);
    expect(processEntries(readCache(elsewhere))[PROCESS]).toBeDefined();
  });

  it('puts the cache inside --cache-location when it names a folder, as ESLint does', () => {
    const dir = join(base, `dir-${n}`);
    mkdirSync(dir);
    lintJson('--cache', '--cache-location', dir);
    expect(processEntries(readCache(join(dir, '.docgatecache')))[PROCESS]).toBeDefined();
  });

  it('warns when the cache cannot be written, keeps the lint result, and leaves no temporary file', () => {
    const blocker = join(base, `blocker-${n}`);
    writeFileSync(blocker, 'a file, not a folder\n');
    const r = runCli(['lint', '--root', root, '--format', 'json', '--cache', '--cache-location', join(blocker, 'cache.json')]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(lintJson().stdout));
    expect(r.stderr).toMatch(/warning: cannot write cache/);
    expect(readdirSync(base).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
