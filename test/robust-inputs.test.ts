/**
 * Named bad inputs (SPEC §5, issue 6): each gives a ParseFailureResult or a clean pass, never a crash,
 * through `lint()` and through the CLI as a child process (exit 1 or 0, never 2, never a stack trace).
 * Roots that can be real files are in test/fixtures/robust/<case>/; huge or special entries (10 MB files,
 * directories named like documents, symlinks, FIFOs) are made here in a temporary folder.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeBytes } from '../src/lint/analyze.js';
import { lintRoot as lint } from '../src/lint/root.js';
import type { LintRun } from '../src/lint/run.js';
import { MAX_DIAGNOSTICS, renderError, resultOf } from '../src/model/result.js';
import { loadProject } from '../src/project/project.js';
import { MAX_DEPTH, MAX_YAML_LENGTH } from '../src/parse/yaml-frontmatter.js';
import { stylish } from '../src/report/stylish.js';
import { REPO, asServed, fixture, runCli } from './helpers.js';

const rules = loadProject(REPO);
const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'docgate-robust-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function put(root: string, rel: string, data: string | Uint8Array): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), data);
}

/** Every position of a result lies inside its file (for regular files that can be read back). */
function positionsInside(root: string, run: LintRun): void {
  for (const r of run.results) {
    let text: string;
    try {
      if (!statSync(join(root, r.path)).isFile() || statSync(join(root, r.path)).size > 2 * 1024 * 1024) continue;
      text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(readFileSync(join(root, r.path)));
    } catch {
      continue;
    }
    const lines = text.split('\n');
    for (const d of r.diagnostics) {
      expect(d.line, `${r.path} ${d.line}:${d.column}`).toBeGreaterThanOrEqual(1);
      expect(d.line, `${r.path} ${d.line}:${d.column}`).toBeLessThanOrEqual(lines.length);
      expect(d.column, `${r.path} ${d.line}:${d.column}`).toBeGreaterThanOrEqual(1);
      expect(d.column, `${r.path} ${d.line}:${d.column}`).toBeLessThanOrEqual(lines[d.line - 1]!.length + 1);
    }
  }
}

/**
 * Lints `root` in-process and through the CLI (json and stylish), and checks that they agree: the exact
 * `error` of every failing file, the number of files checked, exit 1 on failures and 0 on a clean pass,
 * nothing on stderr that looks like a crash.
 */
function lintEverywhere(root: string, expected: Record<string, string>, filesChecked: number): LintRun {
  const run = lint({ root });
  expect(Object.fromEntries(run.results.map((r) => [r.path, r.error]))).toEqual(expected);
  expect(run.filesChecked).toBe(filesChecked);
  for (const r of run.results) expect(r.error).toBe(renderError(r.diagnostics));
  positionsInside(root, run);

  const code = Object.keys(expected).length > 0 ? 1 : 0;
  const json = runCli(['lint', '--root', root, '--format', 'json']);
  expect(json.stderr).not.toMatch(/internal error|^\s+at /m);
  expect(json.code, json.stderr).toBe(code);
  const report = JSON.parse(json.stdout) as { results: LintRun['results']; filesChecked: number; problemCount: number };
  expect(report.results.map(asServed)).toEqual(run.results);
  expect(report.filesChecked).toBe(filesChecked);

  const text = runCli(['lint', '--root', root]);
  expect(text.stderr).not.toMatch(/internal error|^\s+at /m);
  expect(text.code, text.stderr).toBe(code);
  expect(text.stdout).toBe(stylish(run, { color: false }));
  return run;
}

const BOM = '1:1 Unexpected byte order mark (BOM), expected UTF-8 without a BOM [file-bom]';
const NUL = 'Unexpected NUL byte, expected text without NUL bytes [file-nul]';
const DEEP = `Unexpected YAML nested deeper than ${MAX_DEPTH} levels, expected frontmatter nested at most ${MAX_DEPTH} levels deep [yaml-syntax]`;
const BOMB = '4:10 Unexpected alias expansion beyond 100 nodes, expected frontmatter without an alias bomb [yaml-alias]';
const UNTERMINATED = '1:1 Unexpected frontmatter without a closing `---` line, expected `---` after the YAML [frontmatter-unterminated]';

describe('named inputs from real fixture files (test/fixtures/robust)', () => {
  it('CRLF line endings: every bundled document of every kind, in CRLF, passes', () => {
    lintEverywhere(fixture('robust', 'crlf'), {}, 18);
  });

  it('a BOM: a failure of the file at 1:1, for every kind', () => {
    lintEverywhere(
      fixture('robust', 'bom'),
      { 'docs/sysrs/docgate-mcp-server.md': BOM, 'frameworks/POWER.md': BOM, 'processes/code-review.md': BOM, 'templates/power/readme.txt': BOM },
      4,
    );
  });

  it('invalid UTF-8: a failure at the first invalid byte, for every kind', () => {
    lintEverywhere(
      fixture('robust', 'invalid-utf8'),
      {
        'docs/sysrs/docgate-mcp-server.md': '2:37 Unexpected byte 0xc3 that is not valid UTF-8, expected UTF-8 text [file-encoding]',
        'frameworks/POWER.md': '1:12 Unexpected byte 0xe9 that is not valid UTF-8, expected UTF-8 text [file-encoding]',
        'processes/code-review.md': '2:10 Unexpected byte 0xe9 that is not valid UTF-8, expected UTF-8 text [file-encoding]',
        'templates/power/readme.txt': '3:11 Unexpected byte 0xe9 that is not valid UTF-8, expected UTF-8 text [file-encoding]',
      },
      4,
    );
  });

  it('NUL bytes: a failure at the first NUL, for every kind', () => {
    lintEverywhere(
      fixture('robust', 'nul'),
      {
        'docs/sysrs/docgate-mcp-server.md': `13:4 ${NUL}`,
        'frameworks/POWER.md': `3:1 ${NUL}`,
        'processes/code-review.md': `2:11 ${NUL}`,
        'templates/power/readme.txt': `2:13 ${NUL}`,
      },
      4,
    );
  });

  it('an empty file of every kind: a failure, every position 1:1', () => {
    const run = lint({ root: fixture('robust', 'empty') });
    expect(run.results.map((r) => r.path)).toEqual(['docs/sysrs/empty.md', 'frameworks/Empty.md', 'processes/empty.md', 'templates/power/empty.txt']);
    for (const r of run.results) for (const d of r.diagnostics) expect([d.line, d.column]).toEqual([1, 1]);
    const rules = (path: string): string[] => [...new Set(run.results.find((r) => r.path === path)!.diagnostics.map((d) => d.rule))].sort();
    expect(rules('frameworks/Empty.md')).toEqual(['file-empty']);
    expect(rules('processes/empty.md')).toEqual(['process-empty-body']);
    expect(rules('templates/power/empty.txt')).toEqual(['missing-key']);
    expect(rules('docs/sysrs/empty.md')).toEqual(['missing-key', 'sysrs-h1', 'sysrs-missing-section']);
    lintEverywhere(fixture('robust', 'empty'), Object.fromEntries(run.results.map((r) => [r.path, r.error])), 4);
  });

  it('YAML that is a sequence or a scalar, not a mapping', () => {
    lintEverywhere(
      fixture('robust', 'not-mapping'),
      {
        'docs/sysrs/sequence.md': '2:1 Unexpected a sequence as frontmatter, expected a mapping of keys to values [frontmatter-not-mapping]',
        'processes/scalar.md': '2:1 Unexpected the scalar `just a sentence` as frontmatter, expected a mapping of keys to values [frontmatter-not-mapping]',
        'processes/sequence.md': '2:1 Unexpected a sequence as frontmatter, expected a mapping of keys to values [frontmatter-not-mapping]',
      },
      3,
    );
  });

  it('YAML nested 5,000 deep (flow sequences, flow mappings, block sequences): refused at the first level too deep', () => {
    lintEverywhere(
      fixture('robust', 'deep-yaml'),
      {
        'docs/sysrs/deep.md': `2:104 ${DEEP}`,
        'processes/block-sequence.md': `3:199 ${DEEP}`,
        'processes/flow-mapping.md': `2:403 ${DEEP}`,
        'processes/flow-sequence.md': `2:106 ${DEEP}`,
      },
      4,
    );
  });

  it('an alias bomb (9 levels × 9 aliases): refused at the first alias', () => {
    lintEverywhere(fixture('robust', 'alias-bomb'), { 'docs/sysrs/bomb.md': BOMB, 'processes/bomb.md': BOMB }, 2);
  });

  it('unterminated frontmatter', () => {
    lintEverywhere(fixture('robust', 'unterminated'), { 'docs/sysrs/open.md': UNTERMINATED, 'processes/open.md': UNTERMINATED }, 2);
  });

  it('more than 100 defects in one file: the first 100 by position are reported', () => {
    const run = lint({ root: fixture('robust', 'many-diagnostics') });
    expect(run.results).toHaveLength(1);
    const [r] = run.results;
    expect(r!.diagnostics).toHaveLength(MAX_DIAGNOSTICS);
    expect(r!.diagnostics.every((d) => d.rule === 'unknown-key')).toBe(true);
    expect(r!.diagnostics[0]!.message).toBe(
      'Unexpected key `extra0`, expected one of: `framework`, `purpose`, `output`, `work`, `examples`, `requirements`, `save_as`, `store_as`',
    );
    expect(r!.diagnostics[99]!.message).toContain('`extra99`');
    lintEverywhere(fixture('robust', 'many-diagnostics'), { [r!.path]: r!.error }, 1);
  });

  it('markdown nested 5,000 deep in a SysRS body (quotes, bullets, numbered items): checked without a crash', () => {
    const run = lint({ root: fixture('robust', 'deep-markdown') });
    expect(run.filesChecked).toBe(1);
    expect(run.results.flatMap((r) => r.diagnostics.map((d) => d.rule)).filter((rule) => rule === 'sysrs-internal')).toEqual([]);
    lintEverywhere(fixture('robust', 'deep-markdown'), Object.fromEntries(run.results.map((r) => [r.path, r.error])), 1);
  });
});

describe('named inputs made in a temporary folder', () => {
  it('a 10 MB file of every kind: refused by size', () => {
    const root = join(tmp, 'size');
    for (const rel of ['templates/power/big.txt', 'frameworks/Big.md', 'processes/big.md', 'docs/sysrs/big.md']) {
      put(root, rel, '');
      truncateSync(join(root, rel), 10 * 1024 * 1024);
    }
    const big = '1:1 Unexpected file size 10,485,760 bytes, expected less than 2,097,153 bytes [file-size]';
    lintEverywhere(
      root,
      {
        'docs/sysrs/big.md': big,
        'frameworks/Big.md': big,
        'processes/big.md': big,
        'templates/power/big.txt': '1:1 Unexpected file size 10,485,760 bytes, expected less than 51,200 bytes [file-size]',
      },
      4,
    );
  });

  it('a directory named like a document, for every kind (and a language variant)', () => {
    const root = join(tmp, 'dirs');
    for (const rel of ['templates/power/x.txt', 'frameworks/X.md', 'processes/x.md', 'docs/sysrs/x.md', 'docs/sysrs/de/x.md'])
      put(root, `${rel}/inside.md`, '# inside\n');
    const dir = '1:1 Unexpected directory named like a document, expected a regular file [file-type]';
    lintEverywhere(root, { 'docs/sysrs/de/x.md': dir, 'docs/sysrs/x.md': dir, 'frameworks/X.md': dir, 'processes/x.md': dir, 'templates/power/x.txt': dir }, 5);
  });

  it('symlinks: to a file outside the root (reported, not followed), broken, to a FIFO; and a FIFO itself — no hang', () => {
    const root = join(tmp, 'links');
    const outside = join(tmp, 'outside');
    put(outside, 'secret.md', '---\nname: Secret\n---\n# Secret\n\nTOP-SECRET-CONTENT\n');
    put(root, 'processes/good.md', '---\nname: Good\n---\n# Good\n\nBody.\n');
    symlinkSync(join(outside, 'secret.md'), join(root, 'processes', 'leak.md'));
    mkdirSync(join(root, 'docs', 'sysrs'), { recursive: true });
    symlinkSync(join(outside, 'secret.md'), join(root, 'docs', 'sysrs', 'leak.md'));
    symlinkSync(join(root, 'processes', 'missing-target'), join(root, 'processes', 'broken.md'));
    execFileSync('mkfifo', [join(root, 'processes', 'pipe')]);
    symlinkSync('pipe', join(root, 'processes', 'to-pipe.md'));
    execFileSync('mkfifo', [join(root, 'processes', 'fifo.md')]);
    const outsideMsg = '1:1 Unexpected symbolic link to a target outside the root, expected a file inside the root [file-symlink]';
    const unreadable = '1:1 Unexpected entry that cannot be read (broken link?), expected a readable file [file-read]';
    // Issue 11 item 15: a FIFO (or a link to one) has its own message; "(broken link?)" is for broken links only.
    const special = '1:1 Unexpected special file (FIFO, socket or device), expected a regular file [file-read]';
    lintEverywhere(
      root,
      {
        'docs/sysrs/leak.md': outsideMsg,
        'processes/broken.md': unreadable,
        'processes/fifo.md': special,
        'processes/leak.md': outsideMsg,
        'processes/to-pipe.md': special,
      },
      6,
    );
    const cli = runCli(['lint', '--root', root, '--format', 'json']);
    expect(cli.stdout).not.toContain('TOP-SECRET-CONTENT');
    expect(cli.stdout).not.toContain('Secret');
  });

  it('frontmatter longer than the YAML limit: refused unparsed (a megabyte of YAML would take the parser minutes)', () => {
    const root = join(tmp, 'big-yaml');
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}: 1`).join('\n');
    put(root, 'processes/keys.md', `---\nname: Keys\n${keys}\n---\n# Keys\n\nBody.\n`);
    const yamlLength = `name: Keys\n${keys}\n`.length;
    expect(yamlLength).toBeGreaterThan(MAX_YAML_LENGTH);
    lintEverywhere(
      root,
      {
        'processes/keys.md': `2:1 Unexpected frontmatter of ${yamlLength.toLocaleString('en-US')} characters, expected at most 65,536 characters of YAML [file-size]`,
      },
      1,
    );
  });
});

describe('limits that hold in-process', () => {
  const bytesOf = (rel: string): Uint8Array => readFileSync(fixture('robust', rel));

  it('refuses the alias bomb in well under a second', () => {
    const ref = { path: 'processes/bomb.md', kind: 'process' as const, lang: null };
    analyzeBytes(ref, bytesOf('alias-bomb/processes/bomb.md'), rules); // warm: schemas compiled, code loaded
    const start = performance.now();
    const a = analyzeBytes(ref, bytesOf('alias-bomb/processes/bomb.md'), rules);
    const ms = performance.now() - start;
    expect(resultOf(a)!.error).toBe(BOMB);
    expect(ms).toBeLessThan(2000);
  });

  it('gives deep YAML the same diagnostics however deep the caller’s stack is (no stack-overflow-dependent positions)', () => {
    const ref = { path: 'processes/flow-mapping.md', kind: 'process' as const, lang: null };
    const bytes = bytesOf('deep-yaml/processes/flow-mapping.md');
    const top = analyzeBytes(ref, bytes, rules).diagnostics;
    const nested = (n: number): unknown => (n === 0 ? analyzeBytes(ref, bytes, rules).diagnostics : [nested(n - 1)][0]);
    expect(nested(3000)).toEqual(top);
    expect(top).toEqual([{ line: 2, column: 403, rule: 'yaml-syntax', message: DEEP.replace(' [yaml-syntax]', '') }]);
  });

  it('allows YAML nested exactly to the limit', () => {
    const levels = MAX_DEPTH - 1; // the root mapping is one level
    const text = `---\nname: ${'['.repeat(levels)}x${']'.repeat(levels)}\n---\n# Deep\n\nBody.\n`;
    const a = analyzeBytes({ path: 'processes/deep.md', kind: 'process', lang: null }, new TextEncoder().encode(text), rules);
    expect(a.diagnostics.map((d) => d.rule)).toEqual(['wrong-type']);
  });

  it('positions a YAML error after a multi-line plain scalar on its own line (found by fast-check)', () => {
    const text = '---\n- GOL 4a98b56c: Serve every content kind\nThe tools read the variant.\nstatus: draft\n---\n# X\n';
    const a = analyzeBytes({ path: 'processes/x.md', kind: 'process', lang: null }, new TextEncoder().encode(text), rules);
    const lines = text.split('\n');
    expect(a.diagnostics.length).toBeGreaterThan(0);
    for (const d of a.diagnostics) expect(d.column).toBeLessThanOrEqual(lines[d.line - 1]!.length + 1);
  });

  it('reports each repeated key, in block and flow mappings, at the repetition', () => {
    const text = '---\nname: A\nname: B\ndescription: x\nname: C\nextra: {a: 1, b: 2, a: 3}\n---\n# X\n\nBody.\n';
    const a = analyzeBytes({ path: 'processes/x.md', kind: 'process', lang: null }, new TextEncoder().encode(text), rules);
    expect(a.diagnostics.filter((d) => d.rule === 'duplicate-key').map((d) => `${d.line}:${d.column}`)).toEqual(['3:1', '5:1', '6:21']);
  });
});
