import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { parseCacheFile, serializeCacheFile } from '../src/store/cache-file.js';
import type { CacheFile } from '../src/store/cache-file.js';
import { decodeSection, encodeSection } from '../src/store/cache-rows.js';
import type { CacheEntry } from '../src/store/cache-rows.js';
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

function readCache(file = cacheFile): CacheData {
  return parseCacheFile(readFileSync(file))!;
}

/** The process entries as a run sees them: the section, then its updates over it. */
function processEntries(c: CacheData): Map<string, CacheEntry> {
  const entries = decodeSection('process', String(c.kinds.process!));
  if (c.updates?.process !== undefined) for (const [path, e] of decodeSection('process', String(c.updates.process))) entries.set(path, e);
  return entries;
}

/** Writes `entries` as the whole process section (no updates). */
function writeProcessEntries(c: CacheData, entries: Map<string, CacheEntry>): void {
  c.kinds.process = encodeSection(entries);
  delete c.updates?.process;
}

/** Plants a diagnostic in a cache entry: if it shows up in the output, the entry was replayed. */
function plant(path: string, mutate: (c: CacheData) => void = () => {}): void {
  const c = readCache();
  const entries = processEntries(c);
  entries.get(path)!.diagnostics = [{ line: 1, column: 1, rule: 'planted', message: 'Unexpected replay' }];
  writeProcessEntries(c, entries);
  mutate(c);
  writeFileSync(cacheFile, serializeCacheFile(c));
}

const PROCESS = 'processes/release.md';
const OTHER = 'processes/code-review.md';

interface Report {
  filesChecked: number;
  results: { path: string; error: string; diagnostics: { rule: string }[] }[];
}

/** Fixes the staged process's own defect (an unknown key), so that only cross-file findings remain. */
function cleanStaged(): void {
  const file = join(root, PROCESS);
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^owner:.*\n/m, ''));
}

/** Dates every file and folder of `dir` an hour back, as in a checkout that was not touched lately. */
function age(dir: string): void {
  const then = new Date(Date.now() - 3_600_000);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) age(path);
    utimesSync(path, then, then);
  }
  utimesSync(dir, then, then);
}

/** `docgate lint --cache <file>` as a pre-commit hook runs it: one absolute path. */
function lintOne(path: string): Report {
  return JSON.parse(runCli(['lint', '--root', root, '--format', 'json', '--cache', join(root, path)]).stdout) as Report;
}

function rulesOf(report: Report): string[] {
  return report.results.flatMap((r) => r.diagnostics.map((d) => d.rule));
}

/** The text of process `path` with its `name` line set to `name`. */
function withName(path: string, name: string): string {
  return readFileSync(join(root, path), 'utf8').replace(/^name: .*$/m, `name: ${name}`);
}

/** The state a pre-commit hook meets: a clean staged file, a checkout untouched for a while, a filled cache. */
function warmCache(): void {
  cleanStaged();
  age(root);
  lintJson('--cache');
}

function nameOf(path: string): string {
  return /^name: (.*)$/m.exec(readFileSync(join(root, path), 'utf8'))![1]!;
}

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
    expect([...processEntries(readCache()).keys()]).toContain(PROCESS);
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

  it('lints one staged file from the cache: other files feed the cross-file rules their cached facts, unread', () => {
    warmCache();
    expect(Object.keys(readCache().listings ?? {}).sort()).toEqual(['framework', 'process', 'sysrs', 'template']);
    const one = lintOne(PROCESS);
    expect(one.filesChecked).toBe(1);
    expect(one.results).toEqual([]);
    // A planted name in another file's cached facts reaches the staged file's rules: that file was not read.
    const c = readCache();
    const entries = processEntries(c);
    entries.get(OTHER)!.facts = { kind: 'process', name: { value: nameOf(PROCESS).toUpperCase(), line: 2, column: 7 } };
    writeProcessEntries(c, entries);
    writeFileSync(cacheFile, serializeCacheFile(c));
    expect(rulesOf(lintOne(PROCESS))).toEqual(['process-duplicate-name']);
  });

  it('notices a document added, removed or replaced next to the staged one (its folder changed)', () => {
    warmCache();
    const added = join(root, 'processes', 'added.md');
    writeFileSync(added, `---\nname: ${nameOf(PROCESS).toUpperCase()}\n---\n# Added\n\nBody.\n`);
    const withAdded = lintOne(PROCESS);
    expect(rulesOf(withAdded)).toEqual(['process-duplicate-name']);
    expect(withAdded.results[0]!.error).toContain('also in processes/added.md');
    rmSync(added);
    expect(lintOne(PROCESS).results).toEqual([]);
    // An editor's safe write (or a git checkout) replaces the file: a new entry in the folder.
    const other = join(root, OTHER);
    writeFileSync(`${other}.tmp`, withName(OTHER, nameOf(PROCESS).toUpperCase()));
    renameSync(`${other}.tmp`, other);
    expect(rulesOf(lintOne(PROCESS))).toEqual(['process-duplicate-name']);
  });

  it('keeps the cached facts of another file edited in place until it is linted itself or the whole root is', () => {
    warmCache();
    const other = join(root, OTHER);
    writeFileSync(other, withName(OTHER, nameOf(PROCESS).toUpperCase()));
    // The documented trade-off (docs/decisions.md): the folder is unchanged, so the cached name stands.
    expect(lintOne(PROCESS).results).toEqual([]);
    // Linting the edited file checks it against the others, and a whole-root run verifies every file.
    expect(rulesOf(lintOne(OTHER))).toEqual(['process-duplicate-name']);
    const whole = JSON.parse(lintJson('--cache').stdout) as Report;
    expect(whole.results.filter((r) => r.path.startsWith('processes/')).map((r) => r.path)).toEqual([OTHER, PROCESS]);
    expect(rulesOf(lintOne(PROCESS))).toEqual(['process-duplicate-name']);
  });

  it('gives a run over files of several kinds the results of the same run without the cache', () => {
    warmCache();
    const paths = [PROCESS, 'docs/sysrs/order-intake.md', 'docs/sysrs/de/orphan.md', 'templates/power/gamma.txt', 'frameworks/Notes.md'].map((p) =>
      join(root, p),
    );
    const uncached = runCli(['lint', '--root', root, '--format', 'json', ...paths]);
    expect(JSON.parse(uncached.stdout).filesChecked).toBe(5);
    for (let i = 0; i < 2; i++) expect(runCli(['lint', '--root', root, '--format', 'json', '--cache', ...paths])).toEqual(uncached);
  });

  it('always checks the staged file itself, however it was edited', () => {
    warmCache();
    const staged = join(root, PROCESS);
    writeFileSync(staged, withName(PROCESS, nameOf(OTHER)));
    expect(rulesOf(lintOne(PROCESS))).toEqual(['process-duplicate-name']);
  });

  it("does not keep a listing taken while its folder was changing (git's racily clean rule)", () => {
    // Copied a moment ago: the folders' mtimes are too recent to vouch for the listing.
    cleanStaged();
    lintJson('--cache');
    expect(readCache().listings?.process).toBeUndefined();
    const other = join(root, OTHER);
    writeFileSync(other, withName(OTHER, nameOf(PROCESS).toUpperCase()));
    expect(rulesOf(lintOne(PROCESS))).toEqual(['process-duplicate-name']);
  });

  it('drops the racy mark of a file once it has settled, and then leaves the cache file alone', () => {
    lintJson('--cache'); // the files were copied a moment ago: their entries are racy
    expect([...processEntries(readCache()).values()].every((e) => e.racy === true)).toBe(true);
    age(root); // an hour old now: the next run reads them once more and finds the same content
    lintJson('--cache');
    expect([...processEntries(readCache()).values()].some((e) => e.racy)).toBe(false);
    const before = statSync(cacheFile);
    const again = lintJson('--cache');
    expect(again).toEqual(lintJson());
    expect(statSync(cacheFile).ino).toBe(before.ino); // not rewritten: nothing changed
  });

  it('writes the entries a run changed as updates, carrying the section over byte for byte', () => {
    warmCache();
    const before = readCache();
    expect(before.updates?.process).toBeUndefined();
    const staged = join(root, PROCESS);
    writeFileSync(staged, withName(PROCESS, 'Release Train'));
    expect(lintOne(PROCESS).results).toEqual([]);
    const after = readCache();
    expect(Buffer.from(after.kinds.process!).equals(Buffer.from(before.kinds.process!))).toBe(true);
    expect([...decodeSection('process', String(after.updates!.process)).keys()]).toEqual([PROCESS]);
    expect(processEntries(after).get(PROCESS)!.facts).toEqual({ kind: 'process', name: { value: 'Release Train', line: 2, column: 7 } });
    expect(lintJson('--cache')).toEqual(lintJson());
  });

  it('folds updates into the section when an entry is dropped or they pass 256 rows', () => {
    age(root);
    lintJson('--cache');
    const other = join(root, OTHER);
    writeFileSync(other, readFileSync(other, 'utf8').replace(/^description: .*$/m, 'description: Edited'));
    lintJson('--cache');
    expect(readCache().updates?.process).toBeDefined();
    rmSync(other);
    lintJson('--cache');
    expect(readCache().updates?.process).toBeUndefined();
    expect([...processEntries(readCache()).keys()]).toEqual([PROCESS]);
    // 300 new documents in one run: more than 256 changed rows are written as the section itself.
    for (let i = 0; i < 300; i++) writeFileSync(join(root, 'processes', `p${String(i).padStart(3, '0')}.md`), `---\nname: P ${i}\n---\n# P ${i}\n\nBody.\n`);
    const fresh = lintJson();
    expect(lintJson('--cache')).toEqual(fresh);
    const c = readCache();
    expect(c.updates?.process).toBeUndefined();
    expect(decodeSection('process', String(c.kinds.process!)).size).toBe(301);
    expect(lintJson('--cache')).toEqual(fresh);
  });

  it('writes the cache where --cache-location says', () => {
    const elsewhere = join(base, `elsewhere-${n}`, 'cache.json');
    lintJson('--cache', '--cache-location', elsewhere);
    expect(processEntries(readCache(elsewhere)).get(PROCESS)).toBeDefined();
  });

  it('puts the cache inside --cache-location when it names a folder, as ESLint does', () => {
    const dir = join(base, `dir-${n}`);
    mkdirSync(dir);
    lintJson('--cache', '--cache-location', dir);
    expect(processEntries(readCache(join(dir, '.docgatecache'))).get(PROCESS)).toBeDefined();
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
