/**
 * What docgate reads, proven by watching node:fs (test/fixtures/robust/fs-spy.mjs) both in this process
 * and in the CLI as a child process (`node --import fs-spy.mjs bin/docgate.js lint …`):
 * - a 10 MB file is refused by size without reading its bytes (one open, for the size on the handle);
 * - the target of a symlink that leaves the root is never opened;
 * - a file that vanishes between discovery and read is omitted and counted nowhere.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { analyzeFile } from '../src/lint/analyze.js';
import { discover } from '../src/io/layout.js';
import { builtinLayout } from '../src/kinds/index.js';
import { lintRoot as lint } from '../src/lint/root.js';
import { loadProject } from '../src/project/project.js';
import { BIN, REPO, fixture } from './helpers.js';
// @ts-expect-error plain JavaScript helper, also used as a preload of the CLI
import { installFsSpy } from './fixtures/robust/fs-spy.mjs';

interface SpyReport {
  opens: Record<string, number>;
  bytes: Record<string, number>;
  vanished: boolean;
}
const spyInstaller = installFsSpy as (o: { watch?: string[]; vanish?: string | null }) => { report: SpyReport; restore(): void };

const rules = loadProject(REPO);
const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'docgate-reads-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

function spy(watch: string[], vanish: string | null = null): SpyReport {
  const s = spyInstaller({ watch, vanish });
  restore = s.restore;
  return s.report;
}

function put(root: string, rel: string, data: string): string {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, data);
  return abs;
}

/** The CLI as a child process with the spy preloaded; returns its output and the spy's report. */
function cliWithSpy(args: string[], watch: string[], vanish: string | null = null): { code: number | null; stdout: string; stderr: string; report: SpyReport } {
  const out = join(tmp, `spy-${Math.random().toString(36).slice(2)}.json`);
  const env: NodeJS.ProcessEnv = { ...process.env, DOCGATE_FS_SPY: JSON.stringify({ watch, vanish, out }) };
  delete env.DOCGATE_ROOT;
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(fixture('robust', 'fs-spy.mjs')).href, BIN, ...args], { env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, report: JSON.parse(readFileSync(out, 'utf8')) as SpyReport };
}

const GOOD = '---\nname: Good\n---\n# Good\n\nBody.\n';
const TEN_MB = 10 * 1024 * 1024;

describe('a 10 MB file is refused by size without being read', () => {
  const root = join(tmp, 'size');
  const files = ['templates/power/big.txt', 'frameworks/Big.md', 'processes/big.md', 'docs/sysrs/big.md'].map((rel) => {
    const abs = put(root, rel, '');
    truncateSync(abs, TEN_MB);
    return abs;
  });

  it('the spy sees what it should (a control: reading a watched file counts its bytes)', () => {
    const control = put(root, 'control.bin', 'x'.repeat(1000));
    const report = spy([control]);
    readFileSync(control);
    expect(report.opens[control]).toBe(1);
    expect(report.bytes[control]).toBe(1000);
  });

  it('analyzeFile: one open (the size is read from the handle), zero bytes read, a file-size failure', () => {
    const report = spy(files);
    for (const ref of discover(root, undefined, undefined, builtinLayout())) {
      const a = analyzeFile(ref, rules);
      expect(a!.diagnostics.map((d) => d.rule)).toEqual(['file-size']);
    }
    for (const f of files) {
      expect(report.opens[f], f).toBe(1);
      expect(report.bytes[f], f).toBe(0);
    }
  });

  it('lint(): zero bytes of the big files read', () => {
    const report = spy(files);
    const run = lint({ root });
    expect(run.results.map((r) => r.diagnostics[0]!.rule)).toEqual(['file-size', 'file-size', 'file-size', 'file-size']);
    for (const f of files) expect(report.bytes[f], f).toBe(0);
  });

  it('the CLI (stylish, json, --cache): zero bytes of the big files read, exit 1', () => {
    for (const extra of [[], ['--format', 'json'], ['--cache', '--cache-location', join(tmp, 'size-cache')]]) {
      const r = cliWithSpy(['lint', '--root', root, ...extra], files);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
      expect(r.stdout).toContain('Unexpected file size 10,485,760 bytes');
      for (const f of files) {
        expect(r.report.opens[f], f).toBeLessThanOrEqual(1);
        expect(r.report.bytes[f], f).toBe(0);
      }
    }
  });
});

describe('a symlink inside the root pointing outside it', () => {
  const root = join(tmp, 'links');
  const target = put(join(tmp, 'outside'), 'secret.md', GOOD.replace('Body.', 'TOP-SECRET'));
  put(root, 'processes/good.md', GOOD);
  mkdirSync(join(root, 'docs', 'sysrs'), { recursive: true });
  symlinkSync(target, join(root, 'processes', 'leak.md'));
  symlinkSync(target, join(root, 'docs', 'sysrs', 'leak.md'));

  it('is reported by lint(), and its target is never opened', () => {
    const report = spy([target]);
    const run = lint({ root });
    expect(run.results.map((r) => `${r.path} ${r.error}`)).toEqual([
      'docs/sysrs/leak.md 1:1 Unexpected symbolic link to a target outside the root, expected a file inside the root [file-symlink]',
      'processes/leak.md 1:1 Unexpected symbolic link to a target outside the root, expected a file inside the root [file-symlink]',
    ]);
    expect(report.opens[target]).toBe(0);
    expect(report.bytes[target]).toBe(0);
  });

  it('is reported by the CLI, and its target is never opened', () => {
    for (const extra of [[], ['--format', 'json'], ['--cache', '--cache-location', join(tmp, 'links-cache')]]) {
      const r = cliWithSpy(['lint', '--root', root, ...extra], [target]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain('file-symlink');
      expect(r.stdout).not.toContain('TOP-SECRET');
      expect(r.report.opens[target]).toBe(0);
    }
  });
});

describe('a file deleted between discovery and read', () => {
  it('analyzeFile on a discovered file that is then deleted: null (omitted)', () => {
    const root = join(tmp, 'gone-ref');
    put(root, 'processes/gone.md', GOOD);
    const [ref] = discover(root, undefined, undefined, builtinLayout());
    rmSync(ref!.abs);
    expect(analyzeFile(ref!, rules)).toBeNull();
  });

  it('lint(): discovery lists it, then it vanishes: omitted from results and from filesChecked', () => {
    const root = join(tmp, 'gone-lint');
    put(root, 'processes/stay.md', GOOD);
    const gone = put(root, 'processes/vanish.md', '---\nname: [broken\n---\n');
    const report = spy([gone], gone);
    const run = lint({ root });
    expect(report.vanished).toBe(true);
    expect(run.results).toEqual([]);
    expect(run.filesChecked).toBe(1);
    expect(run.checked.map((c) => c.path)).toEqual(['processes/stay.md']);
  });

  it('the CLI: omitted, counted nowhere, exit 0', () => {
    for (const format of ['json', 'stylish']) {
      const root = join(tmp, `gone-cli-${format}`);
      put(root, 'processes/stay.md', GOOD);
      const gone = put(root, 'processes/vanish.md', '---\nname: [broken\n---\n');
      const r = cliWithSpy(['lint', '--root', root, '--format', format], [gone], gone);
      expect(r.report.vanished).toBe(true);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      if (format === 'json')
        expect(JSON.parse(r.stdout)).toEqual({ results: [], warnings: [], filesChecked: 1, problemCount: 0, errorCount: 0, warningCount: 0 });
      else expect(r.stdout).toBe('0 problems in 0 files (1 file checked)\n');
    }
  });
});
