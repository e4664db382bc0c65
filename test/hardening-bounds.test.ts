/**
 * Issue 11, "crashes and unbounded work from content, and rule data": each case with the sizes of the
 * issue, run as a user meets it (the built CLI or MCP server as a child process) with a capped V8 heap
 * (NODE_OPTIONS=--max-old-space-size), so that a blow-up fails the test. Assertions are on exit codes
 * and output, never on time. Big inputs are generated in a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linearPattern } from '../src/parse/linear-regexp.js';
import { parseCacheFile, serializeCacheFile } from '../src/store/cache-file.js';
import type { CacheFile } from '../src/store/cache-file.js';
import { MAX_DIAGNOSTICS, capDiagnostics, finalizeDiagnostics, renderError } from '../src/model/result.js';
import type { Diagnostic } from '../src/model/types.js';
import { checkSysrsBody } from '../src/project/outline-files.js';
import type { SysrsOutline } from '../src/kinds/sysrs/outline.js';
import { BIN, REPO, fixture } from './helpers.js';
import { startMcp, structuredOf } from './fixtures/mcp/harness.js';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'docgate-bounds-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let rootCount = 0;

function newRoot(from?: string): string {
  const root = join(tmp, `root${rootCount++}`);
  if (from) cpSync(from, root, { recursive: true });
  else mkdirSync(root, { recursive: true });
  return root;
}

function put(root: string, rel: string, data: string | Uint8Array): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), data);
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The built CLI as a child process with its V8 heap capped at `heapMb`. The spawn timeout is only a
 * safety net that turns a hang into a failure (never an assertion on time).
 */
function cli(args: string[], heapMb = 256): Run {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: `--max-old-space-size=${heapMb}` };
  delete env.DOCGATE_ROOT;
  delete env.GITHUB_STEP_SUMMARY;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, env, encoding: 'utf8', timeout: 30_000, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Report {
  results: { id: string; path: string; kind: string; error: string; diagnostics: { line: number; column: number; rule: string; message: string }[] }[];
  filesChecked: number;
  problemCount: number;
}

function json(run: Run): Report {
  expect(run.stderr).not.toMatch(/internal error|^\s+at /m);
  return JSON.parse(run.stdout) as Report;
}

/** `3,996`: thousands separators as in every other count docgate prints. */
const n = (v: number) => v.toLocaleString('en-US');

// ---------------------------------------------------------------------------------------------
describe('item 5: the placeholder graph of 300 templates × 1,000 placeholders stays small', () => {
  const root = newRoot();
  const placeholders = '{{a_summary}}'.repeat(1000);
  const names: string[] = [];
  for (let i = 0; i < 300; i++) {
    const name = `t${String(i).padStart(3, '0')}`;
    names.push(name);
    let text = `framework: POWER\npurpose: Do a thing.\noutput: A header and footer.\nwork: ${placeholders}\nexamples:\n- one\nrequirements: none\nsave_as: A.md\nstore_as: a_summary\n`;
    text += `# ${'x'.repeat(16 * 1024 - text.length - 3)}\n`;
    put(root, `templates/power/${name}.txt`, text);
  }
  const path = (name: string) => `templates/power/${name}.txt`;
  function expectedError(name: string): string {
    const others = names.filter((o) => o !== name);
    expect(others.length).toBe(299);
    return [
      `4:7 Unexpected placeholder cycle ${name} → ${name}, expected templates to reference each other without a cycle [template-placeholder-cycle]`,
      `9:11 Unexpected duplicate store_as \`a_summary\`, expected it unique (also in ${others.slice(0, 3).map(path).join(', ')} and ${n(others.length - 3)} more) [template-duplicate-store-as]`,
    ].join('\n');
  }

  it('lints in bounded memory: one cycle and one duplicate per template, naming three others', () => {
    expect(statSync(join(root, path('t000'))).size).toBe(16 * 1024);
    const run = cli(['lint', '--root', root, '--format', 'json'], 128);
    expect(run.code, run.stderr).toBe(1);
    const report = json(run);
    expect(report.filesChecked).toBe(300);
    expect(report.problemCount).toBe(600);
    expect(report.results.map((r) => [r.path, r.error])).toEqual(names.map((name) => [path(name), expectedError(name)]));
  });

  it('answers list_templates over MCP in bounded memory', async () => {
    const s = await startMcp(root, { NODE_OPTIONS: '--max-old-space-size=128' });
    try {
      const r = structuredOf<{ templates: unknown[]; failures: { path: string; error: string }[] }>(await s.call('list_templates'));
      expect(r.templates).toEqual([]);
      expect(r.failures.map((f) => [f.path, f.error])).toEqual(names.map((name) => [path(name), expectedError(name)]));
    } finally {
      await s.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
describe('item 6: cross-file messages name at most three others', () => {
  it('4,000 processes named `Same`: each message names three others and counts the rest (json and stylish)', () => {
    const root = newRoot();
    const paths: string[] = [];
    for (let i = 0; i < 4000; i++) {
      const path = `processes/p${String(i).padStart(4, '0')}.md`;
      paths.push(path);
      put(root, path, `---\nname: Same\n---\n\n# Same\n\nBody.\n`);
    }
    const lines = paths.map((path) => {
      const others = paths.slice(0, 4).filter((p) => p !== path);
      return `2:7 Unexpected duplicate process name \`Same\`, expected names unique ignoring case (also in ${others.slice(0, 3).join(', ')} and 3,996 more) [process-duplicate-name]`;
    });
    const run = cli(['lint', '--root', root, '--format', 'json'], 192);
    expect(run.code, run.stderr).toBe(1);
    const report = json(run);
    expect(report.problemCount).toBe(4000);
    expect(report.results.map((r) => [r.path, r.error])).toEqual(paths.map((p, i) => [p, lines[i]]));

    const stylish = cli(['lint', '--root', root], 192);
    expect(stylish.code, stylish.stderr).toBe(1);
    expect(stylish.stdout).toBe(`${paths.map((p, i) => `${p}\n  ${lines[i]}\n`).join('\n')}\n4000 problems in 4000 files (4000 files checked)\n`);
  });

  it("keeps today's text with up to three others (four processes named alike)", () => {
    const root = newRoot();
    for (const name of ['a', 'b', 'c', 'd']) put(root, `processes/${name}.md`, `---\nname: Same\n---\n\nBody.\n`);
    const report = json(cli(['lint', '--root', root, '--format', 'json']));
    expect(report.results[0]!.error).toBe(
      '2:7 Unexpected duplicate process name `Same`, expected names unique ignoring case (also in processes/b.md, processes/c.md, processes/d.md) [process-duplicate-name]',
    );
  });

  it('4,000 SysRS with one id: bounded messages', () => {
    const root = newRoot();
    const valid = readFileSync(fixture('rules', 'sysrs-valid', 'docs', 'sysrs', 'fixture.md'), 'utf8');
    for (let i = 0; i < 4000; i++) put(root, `docs/sysrs/s${String(i).padStart(4, '0')}.md`, valid);
    const run = cli(['lint', '--root', root, '--format', 'json'], 256);
    expect(run.code, run.stderr).toBe(1);
    const report = json(run);
    expect([report.filesChecked, report.problemCount]).toEqual([4000, 4000]);
    const byPath = new Map(report.results.map((r) => [r.path, r.error]));
    expect(byPath.get('docs/sysrs/s0000.md')).toBe(
      '2:5 Unexpected duplicate id `7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c`, expected ids unique across documents (also in docs/sysrs/s0001.md, docs/sysrs/s0002.md, docs/sysrs/s0003.md and 3,996 more) [sysrs-duplicate-id]',
    );
    expect(byPath.get('docs/sysrs/s0002.md')).toBe(
      '2:5 Unexpected duplicate id `7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c`, expected ids unique across documents (also in docs/sysrs/s0000.md, docs/sysrs/s0001.md, docs/sysrs/s0003.md and 3,996 more) [sysrs-duplicate-id]',
    );
  });

  it('a placeholder cycle through 4,000 templates: bounded messages', () => {
    const root = newRoot();
    const stems: string[] = [];
    for (let i = 0; i < 4000; i++) stems.push(`c${String(i).padStart(4, '0')}`);
    stems.forEach((stem, i) => {
      const next = stems[(i + 1) % stems.length];
      put(
        root,
        `templates/power/${stem}.txt`,
        `framework: POWER\npurpose: Do a thing.\noutput: A header and footer.\nwork: Use {{${next}_summary}}.\nexamples:\n- one\nrequirements: none\nsave_as: A.md\nstore_as: ${stem}_summary\n`,
      );
    });
    const run = cli(['lint', '--root', root, '--format', 'json'], 256);
    expect(run.code, run.stderr).toBe(1);
    const report = json(run);
    expect([report.filesChecked, report.problemCount]).toEqual([4000, 4000]);
    const byPath = new Map(report.results.map((r) => [r.path, r.error]));
    expect(byPath.get('templates/power/c0000.txt')).toBe(
      '4:11 Unexpected placeholder cycle c0000 → c0001 → c0002 → c0003 → … → c0000 (and 3,996 more), expected templates to reference each other without a cycle [template-placeholder-cycle]',
    );
    expect(byPath.get('templates/power/c3999.txt')).toBe(
      '4:11 Unexpected placeholder cycle c3999 → c0000 → c0001 → c0002 → … → c3999 (and 3,996 more), expected templates to reference each other without a cycle [template-placeholder-cycle]',
    );
  });

  it("keeps today's cycle text with up to three others", () => {
    const root = newRoot();
    const stems = ['ca', 'cb', 'cc', 'cd'];
    stems.forEach((stem, i) => {
      put(
        root,
        `templates/power/${stem}.txt`,
        `framework: POWER\npurpose: Do a thing.\noutput: A header and footer.\nwork: Use {{${stems[(i + 1) % 4]}_summary}}.\nexamples:\n- one\nrequirements: none\nsave_as: A.md\nstore_as: ${stem}_summary\n`,
      );
    });
    const report = json(cli(['lint', '--root', root, '--format', 'json']));
    expect(report.results[0]!.error).toBe(
      '4:11 Unexpected placeholder cycle ca → cb → cc → cd → ca, expected templates to reference each other without a cycle [template-placeholder-cycle]',
    );
  });
});

// ---------------------------------------------------------------------------------------------
/** 2 MiB of `### x` lines: 349,525 headings, each an unknown heading before any `##` section. */
const BIG_SYSRS = '### x\n'.repeat(Math.floor((2 * 1024 * 1024) / 6));

function bigSysrsError(): string {
  const lines = [
    '1:1 Unexpected missing key `id`, expected an `id` entry [missing-key]',
    '1:1 Unexpected `### x`, expected `# System Requirements Specification: <title>` first [sysrs-h1]',
  ];
  for (let line = 1; line <= 98; line++)
    lines.push(`${line}:1 Unexpected heading \`### x\`, expected a \`##\` section heading before it [sysrs-unknown-heading]`);
  return lines.join('\n');
}

describe("item 7: a file's own findings are capped when it is analyzed", () => {
  it('lints a 2 MiB SysRS of 349,525 `### x` lines in bounded memory', () => {
    expect(BIG_SYSRS.length).toBeGreaterThan(349_000);
    expect(BIG_SYSRS.length).toBeLessThanOrEqual(2 * 1024 * 1024);
    const root = newRoot();
    put(root, 'docs/sysrs/big.md', BIG_SYSRS);
    const run = cli(['lint', '--root', root], 256);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe(`docs/sysrs/big.md\n${bigSysrsError().replace(/^/gm, '  ')}\n\n100 problems in 1 file (1 file checked)\n`);
  });

  it('five of them with --cache: a small cache, replayed byte for byte', () => {
    const root = newRoot();
    for (let i = 0; i < 5; i++) put(root, `docs/sysrs/big${i}.md`, BIG_SYSRS);
    const cold = cli(['lint', '--root', root, '--cache', '--format', 'json'], 256);
    expect(cold.code, cold.stderr).toBe(1);
    const report = json(cold);
    expect(report.results.map((r) => [r.path, r.error])).toEqual([0, 1, 2, 3, 4].map((i) => [`docs/sysrs/big${i}.md`, bigSysrsError()]));
    expect(report.problemCount).toBe(500);
    // 100 diagnostics of about 100 bytes per file, not 349,525.
    expect(statSync(join(root, '.docgatecache')).size).toBeLessThan(100_000);
    const warm = cli(['lint', '--root', root, '--cache', '--format', 'json'], 256);
    expect(warm).toEqual(cold);
  });

  it('the MCP server keeps five of them in bounded memory (list_sysrs, validate)', async () => {
    const root = newRoot();
    for (let i = 0; i < 5; i++) put(root, `docs/sysrs/big${i}.md`, BIG_SYSRS);
    const s = await startMcp(root, { NODE_OPTIONS: '--max-old-space-size=256' });
    try {
      const list = structuredOf<{ results: { path: string; error: string | null }[]; error_count: number }>(await s.call('list_sysrs'));
      expect(list.error_count).toBe(5);
      expect(list.results.map((r) => [r.path, r.error])).toEqual([0, 1, 2, 3, 4].map((i) => [`docs/sysrs/big${i}.md`, bigSysrsError()]));
      const v = structuredOf<{ problemCount: number; filesChecked: number }>(await s.call('validate'));
      expect([v.filesChecked, v.problemCount]).toEqual([5, 500]);
    } finally {
      await s.close();
    }
  });
});

describe('item 7: capping early keeps results identical', () => {
  /** The definition: sort every diagnostic, drop repeats, keep the first MAX_DIAGNOSTICS. */
  function naive(list: readonly Diagnostic[]): string {
    const key = (d: Diagnostic) => [d.line, d.column, d.rule, d.message] as const;
    const sorted = [...list].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0) || (x[3] < y[3] ? -1 : x[3] > y[3] ? 1 : 0);
    });
    const out: Diagnostic[] = [];
    for (const d of sorted) {
      const prev = out[out.length - 1];
      if (prev && prev.line === d.line && prev.column === d.column && prev.rule === d.rule && prev.message === d.message) continue;
      out.push(d);
    }
    return renderError(out.slice(0, MAX_DIAGNOSTICS));
  }

  it('own diagnostics capped first, then joined with cross-file ones: the same first 100 (random lists with ties)', () => {
    let seed = 5;
    const next = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % k;
    const random = (count: number, lines: number): Diagnostic[] =>
      Array.from({ length: count }, () => ({ line: 1 + next(lines), column: 1 + next(3), rule: `r${next(3)}`, message: `m${next(3)}` }));
    for (let i = 0; i < 400; i++) {
      const own = random(next(2000), 1 + next(300));
      const cross = random(next(60), 1 + next(300));
      const expected = naive([...own, ...cross]);
      expect(renderError(finalizeDiagnostics([...own, ...cross]))).toBe(expected);
      expect(renderError(finalizeDiagnostics([...capDiagnostics(own), ...cross]))).toBe(expected);
    }
  });

  it('the outline engine with a limit keeps exactly what the result keeps of the engine without one', () => {
    const outline = JSON.parse(readFileSync(join(REPO, 'schemas', 'sysrs-outline.json'), 'utf8')) as SysrsOutline;
    const pieces = [
      '# System Requirements Specification: T',
      '## System Purpose',
      '## Updates',
      '### 2025-01-01 10:00:00.000Z - x',
      '### 2025-01-02 10:00:00.000Z - y',
      '### bad',
      '## Decisions',
      '- DEC 0b4a6f0e-1c2d-4e5f-8a9b-0c1d2e3f4a5b: t',
      '- XYZ 1: t',
      '1. x',
      '## Risks',
      '### x',
      '## x',
      '# again',
      'text',
      '',
      '## Requirements',
      '## System Scope',
    ];
    let seed = 9;
    const next = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % k;
    for (let i = 0; i < 300; i++) {
      const body = Array.from({ length: next(400) }, () => pieces[next(pieces.length)]).join('\n');
      const all = checkSysrsBody(body, 3, outline, null);
      const capped = checkSysrsBody(body, 3, outline, null, MAX_DIAGNOSTICS);
      expect(renderError(capped.diagnostics)).toBe(renderError(finalizeDiagnostics(all.diagnostics)));
      expect(capped.body).toEqual(all.body);
    }
  });
});

// ---------------------------------------------------------------------------------------------
describe('item 8: cache rows are validated; a bad section is an empty one', () => {
  const base = fixture('ci-root');
  type Rows = unknown[][];

  /** The ci-root linted once without and once with --cache: the expected output and a filled cache to copy. */
  let prepared: { fresh: Run; root: string } | undefined;
  function prepare(): { fresh: Run; root: string } {
    if (prepared) return prepared;
    const root = newRoot(base);
    const fresh = cli(['lint', '--root', root, '--format', 'json']);
    cli(['lint', '--root', root, '--format', 'json', '--cache']);
    return (prepared = { fresh, root });
  }

  /**
   * A copy of the ci-root and its cache in which `mutate` changed one kind's section rows, linted twice
   * with --cache. (The copied files' stat identities differ, but their content hashes match: the cache
   * entries, bad rows included, are used as they are.)
   */
  function afterCorruption(kind: 'process' | 'template' | 'sysrs', mutate: (rows: Rows) => unknown): { fresh: Run; corrupt: Run; again: Run } {
    const { fresh, root: from } = prepare();
    const root = newRoot(from);
    const file = join(root, '.docgatecache');
    const c = parseCacheFile(readFileSync(file)) as CacheFile;
    let rows = JSON.parse(String(c.kinds[kind])) as Rows;
    if (c.updates?.[kind] !== undefined) rows = rows.concat(JSON.parse(String(c.updates[kind])) as Rows);
    delete c.updates?.[kind];
    const out = mutate(rows);
    c.kinds[kind] = typeof out === 'string' ? out : JSON.stringify(out ?? rows);
    writeFileSync(file, serializeCacheFile(c));
    const corrupt = cli(['lint', '--root', root, '--format', 'json', '--cache']);
    const again = cli(['lint', '--root', root, '--format', 'json', '--cache']);
    return { fresh, corrupt, again };
  }

  const row = (rows: Rows, path: string): unknown[] => rows.find((r) => r[0] === path)!;
  const cases: [string, 'process' | 'template' | 'sysrs', (rows: Rows) => unknown][] = [
    ['diagnostics that are a number (one corrupt byte: 0 → 1)', 'process', (rows) => void (row(rows, 'processes/code-review.md')[5] = 1)],
    [
      'a crafted diagnostic at line 1e308, column -5',
      'process',
      (rows) => void (row(rows, 'processes/code-review.md')[5] = [{ line: 1e308, column: -5, rule: 'planted', message: 'Unexpected replay' }]),
    ],
    [
      'a diagnostic at line 0',
      'process',
      (rows) => void (row(rows, 'processes/code-review.md')[5] = [{ line: 0, column: 1, rule: 'planted', message: 'Unexpected replay' }]),
    ],
    [
      'a diagnostic at a fractional column',
      'process',
      (rows) => void (row(rows, 'processes/code-review.md')[5] = [{ line: 1, column: 1.5, rule: 'planted', message: 'Unexpected replay' }]),
    ],
    [
      'a diagnostic whose message is not a string',
      'process',
      (rows) => void (row(rows, 'processes/code-review.md')[5] = [{ line: 1, column: 1, rule: 'planted', message: 7 }]),
    ],
    [
      'a diagnostic without a rule',
      'process',
      (rows) => void (row(rows, 'processes/code-review.md')[5] = [{ line: 1, column: 1, message: 'Unexpected replay' }]),
    ],
    [
      'an endLine before the line',
      'process',
      (rows) =>
        void (row(rows, 'processes/code-review.md')[5] = [{ line: 5, column: 1, endLine: 2, endColumn: 1, rule: 'planted', message: 'Unexpected replay' }]),
    ],
    [
      'more diagnostics than a file keeps',
      'process',
      (rows) =>
        void (row(rows, 'processes/code-review.md')[5] = Array.from({ length: 101 }, (_, i) => ({
          line: i + 1,
          column: 1,
          rule: 'planted',
          message: 'Unexpected replay',
        }))),
    ],
    // Facts that would make code-review.md a duplicate of release.md if they were believed.
    ['process facts of the wrong shape', 'process', (rows) => void (row(rows, 'processes/code-review.md')[6] = ['Release', 2, 7, 'extra'])],
    ['a located name with a negative line', 'process', (rows) => void (row(rows, 'processes/code-review.md')[6] = ['Release', -1, 7])],
    ['template facts whose placeholders are not a list', 'template', (rows) => void (rows[0]![6] = [0, 5])],
    ['template facts with a placeholder of the wrong shape', 'template', (rows) => void (rows[0]![6] = [0, [[1, 2]]])],
    ['sysrs facts that are a string', 'sysrs', (rows) => void (rows[0]![6] = 'x')],
    ['flags that are a string', 'process', (rows) => void (row(rows, 'processes/code-review.md')[3] = 'x')],
    ['a hash that is a number', 'process', (rows) => void (row(rows, 'processes/code-review.md')[2] = 5)],
    ['an identity that is null', 'process', (rows) => void (row(rows, 'processes/code-review.md')[1] = null)],
    ['an id that is a number', 'process', (rows) => void (row(rows, 'processes/release.md')[4] = 5)],
    ['a row that is not a list', 'process', (rows) => void (rows[0] = 'x' as unknown as unknown[])],
    ['a row that is too short', 'process', (rows) => void (rows[0] = rows[0]!.slice(0, 3))],
    ['a path outside the kind folder', 'process', (rows) => void rows.push(['processes/../../../etc/passwd.md', ...rows[0]!.slice(1)])],
    ['a path of another kind', 'process', (rows) => void rows.push(['templates/power/x.txt', ...rows[0]!.slice(1)])],
    ['a section that is an object', 'process', () => '{"a":1}'],
    ['a section that is not JSON', 'process', () => '[[1,'],
  ];

  it.each(cases)('%s: re-checked, same results as without a cache, never a crash', (_name, kind, mutate) => {
    const { fresh, corrupt, again } = afterCorruption(kind, mutate);
    expect(fresh.code).toBe(1);
    expect(corrupt.stderr).not.toMatch(/internal error|^\s+at /m);
    expect(corrupt.stdout).not.toContain('Unexpected replay');
    expect(corrupt).toEqual(fresh);
    expect(again).toEqual(fresh);
  });

  it('a crafted row whose path leaves the kind folder is never listed, read or replayed (a trusted listing)', () => {
    const root = newRoot(base);
    // A checkout untouched for an hour: the next --cache run records the folders' listings as trusted.
    const then = new Date(Date.now() - 3_600_000);
    const age = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) age(join(dir, entry.name));
        utimesSync(join(dir, entry.name), then, then);
      }
      utimesSync(dir, then, then);
    };
    age(root);
    cli(['lint', '--root', root, '--format', 'json', '--cache']);
    const outside = `${root}-outside.md`;
    writeFileSync(outside, '---\nname: Outside\nowner: x\n---\n\nBody.\n');
    const file = join(root, '.docgatecache');
    const c = parseCacheFile(readFileSync(file)) as CacheFile;
    expect(c.listings?.process).toBeDefined();
    const rows = JSON.parse(String(c.kinds.process)) as unknown[][];
    rows.push([`processes/../../${outside.slice(tmp.length + 1)}`, ...rows[0]!.slice(1)]);
    c.kinds.process = JSON.stringify(rows);
    writeFileSync(file, serializeCacheFile(c));
    const fresh = cli(['lint', '--root', root, '--format', 'json', join(root, 'processes')]);
    const cached = cli(['lint', '--root', root, '--format', 'json', '--cache', join(root, 'processes')]);
    expect(json(fresh).filesChecked).toBe(2);
    expect(cached).toEqual(fresh);
  });

  it('still replays a valid planted row (validation keeps good rows)', () => {
    const { corrupt } = afterCorruption(
      'process',
      (rows) =>
        void (row(rows, 'processes/code-review.md')[5] = [{ line: 3, column: 2, endLine: 3, endColumn: 9, rule: 'planted', message: 'Unexpected replay' }]),
    );
    expect(corrupt.stdout).toContain('Unexpected replay');
  });
});

// ---------------------------------------------------------------------------------------------
describe('item 10: rule data is checked when it is loaded', () => {
  const valid = fixture('rules', 'sysrs-valid');
  const outline = JSON.parse(readFileSync(join(REPO, 'schemas', 'sysrs-outline.json'), 'utf8')) as unknown;
  const table = JSON.parse(readFileSync(join(REPO, 'schemas', 'sysrs-headings.de.json'), 'utf8')) as { headings: Record<string, unknown> };

  function withRule(file: string, content: unknown): string {
    const root = newRoot(valid);
    put(root, `schemas/${file}`, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return root;
  }

  /** `message`: exact, or a pattern where Node's own JSON.parse wording follows the position. */
  function exits2(root: string, message: string | RegExp): void {
    for (const args of [
      ['lint', '--root', root],
      ['lint', '--root', root, join(root, 'docs/sysrs/fixture.md')],
    ]) {
      const run = cli(args);
      if (typeof message === 'string') expect(run.stderr).toBe(`docgate: ${message}\n`);
      else expect(run.stderr).toMatch(new RegExp(`^docgate: ${message.source}.*\n$`));
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
    }
  }

  it('an outline `{}`', () => {
    exits2(withRule('sysrs-outline.json', {}), 'schemas/sysrs-outline.json:1:1 outline is invalid: h1Prefix is not a non-empty string');
  });

  it('an outline `null`', () => {
    exits2(withRule('sysrs-outline.json', null), 'schemas/sysrs-outline.json:1:1 outline is invalid: the outline is not an object');
  });

  it('an outline section of the wrong level', () => {
    const bad = structuredClone(outline) as { sections: { level: number }[] };
    bad.sections[1]!.level = 3;
    exits2(withRule('sysrs-outline.json', bad), 'schemas/sysrs-outline.json:13:16 outline is invalid: sections[1].level is 3, not 2');
  });

  it('a heading table mapping two headings to one text blames the table', () => {
    const bad = structuredClone(table);
    bad.headings['System Scope'] = bad.headings['System Purpose'];
    exits2(
      withRule('sysrs-headings.de.json', bad),
      'schemas/sysrs-headings.de.json:6:21 heading table is invalid: unexpected translation "Systemzweck" of both "System Purpose" and "System Scope", expected a different text for each heading',
    );
  });

  it('a heading table with a value that is not a string', () => {
    const bad = structuredClone(table);
    bad.headings['Goals'] = 5;
    exits2(
      withRule('sysrs-headings.de.json', bad),
      'schemas/sysrs-headings.de.json:9:14 heading table is invalid: unexpected translation 5 of "Goals", expected a non-empty string',
    );
  });

  it('a heading table without some translations names them', () => {
    const bad = structuredClone(table);
    delete bad.headings['Goals'];
    delete bad.headings['Risks'];
    exits2(
      withRule('sysrs-headings.de.json', bad),
      'schemas/sysrs-headings.de.json:4:15 heading table is invalid: unexpected table without a translation of "Goals", "Risks", expected one for every heading of the outline',
    );
  });

  it('an outline that is not JSON: positioned where JSON.parse stopped', () => {
    exits2(
      withRule('sysrs-outline.json', '{\n  "h1Prefix": "SysRS: ",\n  "sections": [\n    { "heading": "A" "level": 2 }\n  ]\n}\n'),
      /schemas\/sysrs-outline\.json:4:22 outline is not valid JSON: /,
    );
  });

  it('a heading table that is not JSON, and one with a blank H1 prefix, each positioned in the table', () => {
    exits2(
      withRule('sysrs-headings.de.json', '{\n  "h1Prefix": "SysRS: ",\n  "headings": {\n    "Goals": "Ziele",\n  }\n}\n'),
      /schemas\/sysrs-headings\.de\.json:5:3 heading table is not valid JSON: /,
    );
    const bad = structuredClone(table) as { h1Prefix: unknown };
    bad.h1Prefix = ' ';
    exits2(
      withRule('sysrs-headings.de.json', bad),
      'schemas/sysrs-headings.de.json:3:15 heading table is invalid: unexpected h1Prefix " ", expected a non-empty string',
    );
  });

  it('a schema that breaks the JSON Schema meta-schema: positioned at the value', () => {
    const root = newRoot();
    put(root, 'schemas/process-frontmatter.schema.json', '{\n  "type": "object",\n  "properties": {\n    "name": { "type": "strin" }\n  }\n}\n');
    const run = cli(['lint', '--root', root]);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'docgate: schemas/process-frontmatter.schema.json:4:23 schema does not compile: properties/name/type must be equal to one of the allowed values\n',
    });
  });

  it('a new heading table of another language is checked too', () => {
    const all: string[] = [];
    const walk = (sections: { heading: string; children?: unknown[] }[]) => {
      for (const s of sections) {
        all.push(`"${s.heading}"`);
        walk((s.children ?? []) as { heading: string; children?: unknown[] }[]);
      }
    };
    walk((outline as { sections: { heading: string }[] }).sections);
    expect(all.length).toBeGreaterThan(30);
    exits2(
      withRule('sysrs-headings.fr.json', { language: 'fr', h1Prefix: 'Spécification : ', headings: {} }),
      `schemas/sysrs-headings.fr.json:4:15 heading table is invalid: unexpected table without a translation of ${all.join(', ')}, expected one for every heading of the outline`,
    );
  });

  it('`"properties": {"name": true}` (valid JSON Schema) lints as content, no internal error', () => {
    const root = newRoot();
    const schema = JSON.parse(readFileSync(join(REPO, 'schemas', 'process-frontmatter.schema.json'), 'utf8')) as { properties: Record<string, unknown> };
    schema.properties['name'] = true;
    schema.properties['owner'] = false;
    put(root, 'schemas/process-frontmatter.schema.json', JSON.stringify(schema));
    put(root, 'processes/a.md', '---\nname: A\n---\n\nBody.\n');
    put(root, 'processes/b.md', '---\nname: B\nowner: me\n---\n\nBody.\n');
    const run = cli(['lint', '--root', root]);
    expect(run.stdout).toBe(
      'processes/b.md\n  3:8 Unexpected `owner` value `me`, expected no value (the schema is `false`) [schema]\n\n1 problem in 1 file (2 files checked)\n',
    );
    expect(run.code).toBe(1);
  });

  it('a root schema pattern `^(a+)+$` checks 30- and 40-character `aaaa…b` values without backtracking', () => {
    const root = newRoot();
    const schema = JSON.parse(readFileSync(join(REPO, 'schemas', 'process-frontmatter.schema.json'), 'utf8')) as {
      properties: Record<string, Record<string, unknown>>;
    };
    schema.properties['name']!['pattern'] = '^(a+)+$';
    put(root, 'schemas/process-frontmatter.schema.json', JSON.stringify(schema));
    // Native RegExp backtracks 2^29 and 2^39 times for these (seconds, then hours).
    const values = [`${'a'.repeat(29)}b`, `${'a'.repeat(39)}b`];
    values.forEach((value, i) => put(root, `processes/a${i}.md`, `---\nname: ${value}\n---\n\nBody.\n`));
    put(root, 'processes/b.md', `---\nname: ${'a'.repeat(30)}\n---\n\nBody.\n`);
    const run = cli(['lint', '--root', root]);
    const expected = values.map(
      (value, i) =>
        `processes/a${i}.md\n  2:7 Unexpected \`name\` value \`${value}\`, expected a value matching \`^(a+)+$\`: a non-empty process name (when absent it is derived from the file name) [invalid-value]\n`,
    );
    expect(run.stdout).toBe(`${expected.join('\n')}\n2 problems in 2 files (3 files checked)\n`);
    expect(run.code).toBe(1);
  });

  it('`patternProperties` `^(a+)+$` beside a 30-character property name compiles without backtracking', () => {
    const root = newRoot();
    const schema = JSON.parse(readFileSync(join(REPO, 'schemas', 'process-frontmatter.schema.json'), 'utf8')) as Record<string, unknown> & {
      properties: Record<string, unknown>;
    };
    schema.properties[`${'a'.repeat(39)}b`] = { type: 'string' };
    schema['patternProperties'] = { '^(a+)+$': { type: 'string' } };
    put(root, 'schemas/process-frontmatter.schema.json', JSON.stringify(schema));
    put(root, 'processes/a.md', `---\nname: A\n${'a'.repeat(30)}: 5\n---\n\nBody.\n`);
    const run = cli(['lint', '--root', root]);
    expect(run.stdout).toBe(
      `processes/a.md\n  3:33 Unexpected number for \`${'a'.repeat(30)}\`, expected a string [wrong-type]\n\n1 problem in 1 file (1 file checked)\n`,
    );
    expect(run.code).toBe(1);
  });

  it("keeps ajv's strict check of `properties` matching `patternProperties` (now on the linear-time engine)", () => {
    const root = newRoot();
    const schema = JSON.parse(readFileSync(join(REPO, 'schemas', 'process-frontmatter.schema.json'), 'utf8')) as Record<string, unknown>;
    schema['patternProperties'] = { '^na': { type: 'string' } };
    put(root, 'schemas/process-frontmatter.schema.json', JSON.stringify(schema));
    put(root, 'processes/a.md', '---\nname: A\n---\n\nBody.\n');
    const run = cli(['lint', '--root', root]);
    expect(run.stderr).toBe(
      'docgate: schemas/process-frontmatter.schema.json:1:1 schema does not compile: strict mode: property name matches pattern ^na (use allowMatchingProperties)\n',
    );
    expect(run.code).toBe(2);
  });

  it('every pattern of the bundled schemas matches the same strings on both engines', () => {
    const patterns: string[] = [];
    const walk = (v: unknown, key = ''): void => {
      if (key === 'pattern' && typeof v === 'string') patterns.push(v);
      else if (Array.isArray(v)) v.forEach((x) => walk(x));
      else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, k);
    };
    for (const file of ['power-template.schema.json', 'process-frontmatter.schema.json', 'sysrs-frontmatter.schema.json'])
      walk(JSON.parse(readFileSync(join(REPO, 'schemas', file), 'utf8')));
    expect(patterns.length).toBeGreaterThanOrEqual(8);
    // Every string of up to 3 characters over an alphabet of what the patterns tell apart, then longer
    // random strings, strings shaped like the values the patterns expect, and the bundled templates' values.
    const alphabet = ['a', 'Z', '0', '9', '_', '-', '+', ':', '.', '!', '?', ' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\u3000', 'T', 'é', '😀'];
    const inputs: string[] = [''];
    let level = [''];
    for (let length = 1; length <= 3; length++) {
      level = level.flatMap((s) => alphabet.map((c) => s + c));
      for (const s of level) inputs.push(s);
    }
    let seed = 11;
    const next = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % k;
    for (let i = 0; i < 20000; i++) inputs.push(Array.from({ length: 1 + next(40) }, () => alphabet[next(alphabet.length)]).join(''));
    const shaped = [
      '2025-11-02 07:34:29.518Z',
      '2025-11-02T07:34:29.518+02:00',
      '1.0.0',
      '1.2.3-beta.1+build.5',
      '7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c',
      'README.md',
      'readme_summary',
      'One sentence.',
      'Two. Sentences.',
    ];
    for (const base of shaped) {
      for (let i = 0; i < 300; i++) {
        const at = next(base.length + 1);
        inputs.push(base.slice(0, at) + alphabet[next(alphabet.length)] + base.slice(at + next(2)));
      }
    }
    inputs.push(...shaped);
    for (const file of readdirSync(join(REPO, 'templates', 'power')))
      inputs.push(
        ...readFileSync(join(REPO, 'templates', 'power', file), 'utf8')
          .split('\n')
          .map((l) => l.slice(l.indexOf(':') + 1).trim()),
      );
    for (const pattern of patterns) {
      const native = new RegExp(pattern, 'u');
      const linear = linearPattern(pattern);
      const differ = inputs.filter((s) => native.test(s) !== linear.test(s));
      expect(differ, pattern).toEqual([]);
    }
  });

  it('translates `\\s`, `\\S` and `.` to their ECMAScript meaning for every BMP code point', () => {
    const cases = ['\\s', '\\S', '.', '[\\s]', '[^\\s]', '[\\S]', '[^\\S]', '[a\\s]', '[]', '[^]', '[\\b]'];
    const compiled = cases.map((p) => [new RegExp(`^${p}$`, 'u'), linearPattern(`^${p}$`)] as const);
    const differ: string[] = [];
    for (let cp = 0; cp <= 0xffff; cp++) {
      const s = String.fromCharCode(cp);
      compiled.forEach(([native, linear], i) => {
        if (native.test(s) !== linear.test(s)) differ.push(`${cases[i]} U+${cp.toString(16)}`);
      });
    }
    expect(differ).toEqual([]);
  });

  it('a pattern the linear-time engine cannot run (a back-reference) is a configuration error naming the schema', () => {
    const root = newRoot();
    const schema = JSON.parse(readFileSync(join(REPO, 'schemas', 'process-frontmatter.schema.json'), 'utf8')) as {
      properties: Record<string, Record<string, unknown>>;
    };
    schema.properties['name']!['pattern'] = '^(a)\\1$';
    put(root, 'schemas/process-frontmatter.schema.json', JSON.stringify(schema));
    put(root, 'processes/a.md', '---\nname: A\n---\n\nBody.\n');
    const run = cli(['lint', '--root', root]);
    expect(run.code).toBe(2);
    const column = JSON.stringify(schema).indexOf(JSON.stringify('^(a)\\1$')) + 1;
    expect(column).toBeGreaterThan(1);
    expect(run.stderr).toMatch(
      new RegExp(`^docgate: schemas/process-frontmatter\\.schema\\.json:1:${column} schema does not compile: pattern \`\\^\\(a\\)\\\\1\\$\` `),
    );
  });
});

// ---------------------------------------------------------------------------------------------
describe('item 15 (part): control characters in messages are shown as escapes', () => {
  it('a heading that clears the screen is printed as `\\x1b[2J`, the same in stylish and json', () => {
    const root = newRoot(fixture('rules', 'sysrs-valid'));
    const file = join(root, 'docs/sysrs/fixture.md');
    const text = readFileSync(file, 'utf8').replace('## System Scope', '## \u001b[2J\u001b[H\t0 problems\u007f\u009b\u0007\n\n## System Scope');
    writeFileSync(file, text);
    const expected =
      '15:1 Unexpected heading `## \\x1b[2J\\x1b[H\\t0 problems\\x7f\\u009b\\x07`, expected a section heading of the SysRS outline [sysrs-unknown-heading]';
    const run = cli(['lint', '--root', root]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(`docs/sysrs/fixture.md\n  ${expected}\n\n1 problem in 1 file (1 file checked)\n`);
    // Nothing but line feeds below U+0020, no DEL, no C1 control.
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    const report = json(cli(['lint', '--root', root, '--format', 'json']));
    expect(report.results[0]!.error).toBe(expected);
  });
});
