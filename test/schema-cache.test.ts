import { chmodSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, runCli, treeHash } from './helpers.js';

// A root's own schema is compiled once and its validator kept in the user's cache folder
// ($XDG_CACHE_HOME/docgate/validators), outside the repository (docs/reliability.md, "Compiled root schemas").

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A copy of the fixture root (its schema is edited by some tests) and an empty cache home of its own. */
function setUp(): { root: string; cacheHome: string; lint: () => ReturnType<typeof runCli> } {
  const root = temp('docgate-schema-cache-root-');
  cpSync(fixture('schema-cache'), root, { recursive: true });
  const cacheHome = temp('docgate-schema-cache-home-');
  return { root, cacheHome, lint: () => runCli(['lint', '--root', root, '--format', 'json'], { env: { XDG_CACHE_HOME: cacheHome } }) };
}

const keptDir = (cacheHome: string): string => join(cacheHome, 'docgate', 'validators');
const keptFiles = (cacheHome: string): string[] => readdirSync(keptDir(cacheHome)).filter((n) => n.endsWith('.kept'));

/** A kept file holding `code` with a header docgate would write for it: its key and the hash of the code. */
function forge(file: string, code: string): void {
  const header = readFileSync(file, 'utf8').split('\n', 1)[0]!.split(' ');
  const body = Buffer.from(code, 'utf8');
  const hash = createHash('sha256').update(body).update('\0').digest('hex');
  writeFileSync(file, Buffer.concat([Buffer.from(`${header[0]} ${header[1]} ${header[2]} ${hash}\n`), body]));
}

/** A validator that accepts everything: a run that loads it reports no schema findings. */
const ACCEPT_ALL = '"use strict";module.exports = function validate() { return true; };';

const ruleIds = (stdout: string): string[] =>
  (JSON.parse(stdout) as { results: { diagnostics?: { rule: string }[] }[] }).results.flatMap((r) => (r.diagnostics ?? []).map((d) => d.rule)).sort();

describe('compiled root schemas kept across runs', () => {
  it('are kept in the user cache folder, never in the repository, and loaded by the next run instead of compiling', () => {
    const { root, cacheHome, lint } = setUp();
    const before = treeHash(root);
    const first = lint();
    expect(first.code).toBe(1);
    expect(ruleIds(first.stdout)).toEqual(['invalid-value', 'invalid-value', 'unknown-key']);
    expect(treeHash(root)).toBe(before);
    const kept = keptFiles(cacheHome);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^[0-9a-f]{64}\.kept$/);
    // Readable by the user only.
    expect(statSync(join(keptDir(cacheHome), kept[0]!)).mode & 0o077).toBe(0);
    // The second run gives the same output, from the kept validator: one that accepts everything,
    // put in its place with a valid header, is what it validates with.
    const file = join(keptDir(cacheHome), kept[0]!);
    const second = lint();
    expect(second.stdout).toBe(first.stdout);
    forge(file, ACCEPT_ALL);
    const third = lint();
    expect(third.code).toBe(0);
    expect(ruleIds(third.stdout)).toEqual([]);
  });

  it('load without the ajv compiler once kept: the first run compiles, the next ones do not', () => {
    const { root, cacheHome } = setUp();
    const spy = fixture('schema', 'load-spy.cjs');
    const env = { NODE_OPTIONS: `--require ${spy}`, XDG_CACHE_HOME: cacheHome };
    const run = () => runCli(['lint', '--root', root, '--format', 'json'], { env });
    const first = run();
    expect(first.stderr).toBe('ajv compiler loaded: true\n');
    const second = run();
    expect(second.stderr).toBe('ajv compiler loaded: false\n');
    expect(second.stdout).toBe(first.stdout);
  });

  it('miss when the schema text changes: the new schema is compiled and kept beside the old one', () => {
    const { root, cacheHome, lint } = setUp();
    lint();
    const schemaFile = join(root, 'schemas', 'note.schema.json');
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
    schema.properties.owner = { type: 'string', description: 'who keeps it' };
    writeFileSync(schemaFile, JSON.stringify(schema, null, 2));
    const r = lint();
    expect(ruleIds(r.stdout)).toEqual(['invalid-value', 'invalid-value']);
    expect(keptFiles(cacheHome)).toHaveLength(2);
  });

  it('treat a corrupt kept file as a miss: the same output, and the file written again', () => {
    const { cacheHome, lint } = setUp();
    const first = lint();
    const file = join(keptDir(cacheHome), keptFiles(cacheHome)[0]!);
    const good = readFileSync(file);
    // A byte changed, a torn write, a header of another key, an empty file, code that throws.
    const corruptions = [
      Buffer.from(good.toString('utf8').replace('validate', 'validatX')),
      good.subarray(0, good.length >> 1),
      Buffer.from(good.toString('utf8').replace(/^(\S+ \S+ )/, '$1x')),
      Buffer.alloc(0),
    ];
    for (const bytes of corruptions) {
      writeFileSync(file, bytes);
      const r = lint();
      expect(r.stdout).toBe(first.stdout);
      expect(r.stderr).toBe(first.stderr);
      expect(readFileSync(file).equals(good)).toBe(true);
    }
    forge(file, 'throw new Error("planted")');
    expect(lint().stdout).toBe(first.stdout);
  });

  it('ignore a cache folder others may write to', () => {
    const { cacheHome, lint } = setUp();
    const first = lint();
    const file = join(keptDir(cacheHome), keptFiles(cacheHome)[0]!);
    forge(file, ACCEPT_ALL);
    chmodSync(keptDir(cacheHome), 0o777);
    expect(lint().stdout).toBe(first.stdout);
    chmodSync(keptDir(cacheHome), 0o700);
    chmodSync(file, 0o666);
    expect(lint().stdout).toBe(first.stdout);
  });

  it('keep at most 64 files: a write removes the least recently written', () => {
    const { cacheHome, lint } = setUp();
    const first = lint();
    const dir = keptDir(cacheHome);
    const mine = keptFiles(cacheHome)[0]!;
    rmSync(join(dir, mine));
    const old = new Date(Date.now() - 3600_000);
    for (let i = 0; i < 70; i++) {
      const f = join(dir, `${i.toString(16).padStart(64, '0')}.kept`);
      writeFileSync(f, 'old\n');
      utimesSync(f, old, new Date(old.getTime() + i * 1000));
    }
    expect(lint().stdout).toBe(first.stdout);
    const left = keptFiles(cacheHome);
    expect(left).toHaveLength(64);
    expect(left).toContain(mine);
    // The oldest went first.
    expect(left).not.toContain(`${'0'.repeat(64)}.kept`);
    expect(left).toContain(`${(69).toString(16).padStart(64, '0')}.kept`);
  });

  it('are not kept when the cache folder cannot be written: the same output, no warning', () => {
    const { root, cacheHome, lint } = setUp();
    const reference = lint();
    // XDG_CACHE_HOME below a regular file: no folder can be made there (whoever runs the test).
    const blocked = join(temp('docgate-schema-cache-file-'), 'a-file');
    writeFileSync(blocked, 'not a folder\n');
    const r = runCli(['lint', '--root', root, '--format', 'json'], { env: { XDG_CACHE_HOME: join(blocked, 'cache') } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(reference.stdout);
    expect(r.stderr).toBe(reference.stderr);
    expect(readFileSync(blocked, 'utf8')).toBe('not a folder\n');
    expect(keptFiles(cacheHome)).toHaveLength(1);
  });
});
