import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT, FS_SPY, startMcp, stderrContains, structuredOf, sysrsText, textOf, uuidOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import type { SysrsRow as Row } from '../src/mcp/tools/sysrs/list_sysrs.js';

const ALPHA = '11111111-1111-4111-8111-111111111111';
const BETA = '22222222-2222-4222-8222-222222222222';
const BROKEN = '33333333-3333-4333-8333-333333333333';
const STATUS_BAD = '44444444-4444-4444-8444-444444444444';
const FAILED = '<failed to parse>';

interface Page {
  results: Row[];
  total: number;
  offset: number;
  max_results: number;
  truncated: boolean;
  error_count: number;
}
interface Failure {
  id: string;
  path: string;
  kind: string;
  error: string;
  diagnostics: { line: number; column: number; rule: string; message: string }[];
}

function fileText(rel: string): string {
  return readFileSync(join(CONTENT, rel), 'utf8');
}

/** The raw body as SPEC §4.4 defines it, computed independently: after the closing `---` and the blank lines after it. */
function rawBodyOf(text: string): string {
  const lines = text.split('\n');
  let i = lines.indexOf('---', 1) + 1;
  while (i < lines.length && lines[i]!.trim() === '' && i < lines.length - 1) i++;
  return lines.slice(i).join('\n');
}

let s: McpSession;
beforeAll(async () => {
  s = await startMcp(CONTENT);
});
afterAll(async () => {
  await s.close();
});

describe('list_sysrs paging over 26 documents', () => {
  const root = mkdtempSync(join(tmpdir(), 'docgate-mcp-26-'));
  let t: McpSession;
  beforeAll(async () => {
    mkdirSync(join(root, 'docs', 'sysrs'), { recursive: true });
    for (let i = 0; i < 26; i++) {
      writeFileSync(join(root, 'docs', 'sysrs', `doc-${String(i).padStart(2, '0')}.md`), sysrsText(uuidOf(0xa0 + i), `Document ${i}`));
    }
    t = await startMcp(root);
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('pages 25 rows by default and sets truncated', async () => {
    const p = structuredOf<Page>(await t.call('list_sysrs'));
    expect(p.results).toHaveLength(25);
    expect(p).toMatchObject({ total: 26, offset: 0, max_results: 25, truncated: true, error_count: 0 });
    expect(p.results[0]).toEqual({
      id: uuidOf(0xa0),
      title: 'System Requirements Specification: Document 0',
      status: 'draft',
      ref: 'doc-00',
      path: 'docs/sysrs/doc-00.md',
      error: null,
    });
    expect(p.results.map((r) => r.ref)).toEqual(Array.from({ length: 25 }, (_, i) => `doc-${String(i).padStart(2, '0')}`));
  });

  it('offset 25 gives the last row and no truncation', async () => {
    const p = structuredOf<Page>(await t.call('list_sysrs', { offset: 25 }));
    expect(p.results.map((r) => r.ref)).toEqual(['doc-25']);
    expect(p).toMatchObject({ total: 26, offset: 25, max_results: 25, truncated: false });
  });

  it('clamps max_results to 1..100 and a negative offset to 0', async () => {
    const big = structuredOf<Page>(await t.call('list_sysrs', { max_results: 500 }));
    expect(big).toMatchObject({ max_results: 100, offset: 0, total: 26, truncated: false });
    expect(big.results).toHaveLength(26);
    const small = structuredOf<Page>(await t.call('list_sysrs', { max_results: 0, offset: -7 }));
    expect(small).toMatchObject({ max_results: 1, offset: 0, truncated: true });
    expect(small.results.map((r) => r.ref)).toEqual(['doc-00']);
    const page = structuredOf<Page>(await t.call('list_sysrs', { max_results: 10, offset: 20 }));
    expect(page.results.map((r) => r.ref)).toEqual(['doc-20', 'doc-21', 'doc-22', 'doc-23', 'doc-24', 'doc-25']);
    expect(page.truncated).toBe(false);
  });

  it('matches glob against ids ignoring case; total counts the matching rows', async () => {
    const p = structuredOf<Page>(await t.call('list_sysrs', { glob: '000000A*' }));
    expect(p.total).toBe(16);
    expect(p.results.every((r) => r.id!.startsWith('000000a'))).toBe(true);
    const one = structuredOf<Page>(await t.call('list_sysrs', { glob: `${uuidOf(0xb9).toUpperCase().slice(0, -1)}?` }));
    expect(one.results.map((r) => r.id)).toEqual([uuidOf(0xb9)]);
  });
});

describe('list_sysrs rows and failed rows', () => {
  it('lists parsed and failed rows by path, failed ones with <failed to parse> and their error', async () => {
    const r = await s.call('list_sysrs');
    const p = structuredOf<Page>(r);
    expect(JSON.parse(textOf(r))).toEqual(p);
    expect(p).toMatchObject({ total: 5, offset: 0, max_results: 25, truncated: false, error_count: 3 });
    expect(p.results.map((row) => row.path)).toEqual([
      'docs/sysrs/alpha.md',
      'docs/sysrs/beta.md',
      'docs/sysrs/broken-outline.md',
      'docs/sysrs/no-id.md',
      'docs/sysrs/status-bad.md',
    ]);
    expect(p.results[0]).toEqual({
      id: ALPHA,
      title: 'System Requirements Specification: Alpha',
      status: 'active',
      ref: 'alpha',
      path: 'docs/sysrs/alpha.md',
      error: null,
    });
    expect(p.results[1]).toMatchObject({ id: BETA, status: 'approved' });
    // SPEC §11: a failed row carries its frontmatter id when it is a valid UUID.
    expect(p.results[2]).toEqual({
      id: BROKEN,
      title: FAILED,
      status: FAILED,
      ref: 'broken-outline',
      path: 'docs/sysrs/broken-outline.md',
      error: '12:1 Unexpected `## Business Context and Goals`, expected `## System Scope` [sysrs-missing-section]',
    });
    expect(p.results[4]!.error!.split('\n')).toHaveLength(2);
  });

  it('never matches failed rows with a glob', async () => {
    const p = structuredOf<Page>(await s.call('list_sysrs', { glob: '*' }));
    expect(p.results.map((row) => row.id)).toEqual([ALPHA, BETA]);
    expect(p).toMatchObject({ total: 2, error_count: 0 });
  });

  it('lists a language variant folder; en needs no table, other codes are checked', async () => {
    const de = structuredOf<Page>(await s.call('list_sysrs', { language: 'de' }));
    expect(de.results.map((row) => [row.path, row.id, row.title])).toEqual([
      ['docs/sysrs/de/alpha.md', ALPHA, 'Systemanforderungsspezifikation: Alpha'],
      ['docs/sysrs/de/beta.md', BETA, FAILED],
    ]);
    expect(structuredOf<Page>(await s.call('list_sysrs', { language: 'en' })).total).toBe(5);
    for (const language of ['xx', 'EN', 'deu']) {
      const r = await s.call('list_sysrs', { language });
      expect(r.isError, language).toBe(true);
    }
  });
});

describe('get_sysrs', () => {
  it('returns the parsed document with frontmatter defaults and on-disk lines', async () => {
    const r = await s.call('get_sysrs', { id: ALPHA });
    const { result } = structuredOf<{ result: { frontmatter: Record<string, unknown>; body: Record<string, any> } }>(r);
    expect(Object.keys(result).sort()).toEqual(['body', 'frontmatter']);
    expect(result.frontmatter).toMatchObject({ id: ALPHA, type: 'sysrs', status: 'active', version: '1.0.0', created: '2025-11-02 07:34:29.518Z' });
    expect(result.body.system_purpose).toEqual({ text: 'Purpose of Alpha.', line: 9 });
    expect(result.body.requirements.functional_suitability.items[0]).toMatchObject({ tag: 'REQ', id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', line: 37 });
    expect(fileText('docs/sysrs/alpha.md').split('\n')[36]).toMatch(/^- REQ 1c2d3e4f/);
    expect(JSON.parse(textOf(r))).toEqual(result);
  });

  it('raw returns the body bytes exactly, from the first line after the frontmatter and its blank lines', async () => {
    for (const [id, file] of [
      [ALPHA, 'docs/sysrs/alpha.md'],
      [BETA, 'docs/sysrs/beta.md'],
    ] as const) {
      const r = await s.call('get_sysrs', { id, raw: true });
      const expected = rawBodyOf(fileText(file));
      expect(expected.startsWith('# System Requirements Specification: ')).toBe(true);
      expect(textOf(r)).toBe(expected);
      expect(structuredOf(r)).toEqual({ result: expected });
    }
  });

  it('windows raw reads by body lines, clamping out-of-range values', async () => {
    const body = rawBodyOf(fileText('docs/sysrs/alpha.md'));
    const lines = body.split('\n').slice(0, -1);
    const win = async (args: Record<string, unknown>): Promise<string> => textOf(await s.call('get_sysrs', { id: ALPHA, raw: true, ...args }));
    expect(await win({ offset: 2, limit: 3 })).toBe('\n## System Purpose\n\n');
    expect(await win({ offset: 2, limit: 3 })).toBe(`${lines.slice(1, 4).join('\n')}\n`);
    expect(await win({ offset: lines.length + 1 })).toBe('');
    expect(await win({ offset: 10_000, limit: 5 })).toBe('');
    expect(await win({ limit: 0 })).toBe('');
    expect(await win({ limit: -1 })).toBe('');
    expect(await win({ offset: 2, limit: 0 })).toBe('');
    expect(await win({ offset: lines.length - 1, limit: 10 })).toBe(`${lines.at(-2)}\n${lines.at(-1)}\n`);
    expect(await win({ limit: 1 })).toBe('# System Requirements Specification: Alpha\n');
    expect(await win({ offset: 1 })).toBe(body);
    expect(await win({ offset: 0, limit: 1 })).toBe('# System Requirements Specification: Alpha\n');
  });

  it('numbers raw lines with absolute body line numbers, also under a window', async () => {
    const body = rawBodyOf(fileText('docs/sysrs/alpha.md'));
    const lines = body.split('\n').slice(0, -1);
    const numbered = textOf(await s.call('get_sysrs', { id: ALPHA, raw: true, numbered: true }));
    expect(numbered).toBe(lines.map((l, i) => `${i + 1}: ${l}\n`).join(''));
    expect(textOf(await s.call('get_sysrs', { id: ALPHA, raw: true, numbered: true, offset: 2, limit: 3 }))).toBe('2: \n3: ## System Purpose\n4: \n');
    expect(textOf(await s.call('get_sysrs', { id: ALPHA, raw: true, numbered: true, offset: 11, limit: 1 }))).toBe(`11: ${lines[10]}\n`);
  });

  it('rejects offset, limit and numbered without raw', async () => {
    for (const args of [{ offset: 2 }, { limit: 3 }, { numbered: true }, { raw: false, offset: 1, limit: 2 }]) {
      const r = await s.call('get_sysrs', { id: ALPHA, ...args });
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      expect(textOf(r)).toMatch(/needs? raw: true/);
    }
  });

  it('answers an unknown id with isError', async () => {
    const id = 'abcdefab-1234-4321-8765-0123456789ab';
    const r = await s.call('get_sysrs', { id });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(`no System Requirements Specification found with id '${id}'`);
  });

  it('answers a broken document with its ParseFailureResult, also with raw and numbered', async () => {
    for (const extra of [{}, { raw: true }, { raw: true, numbered: true, offset: 1, limit: 2 }]) {
      const r = await s.call('get_sysrs', { id: BROKEN, ...extra });
      expect(r.isError ?? false).toBe(false);
      const { result } = structuredOf<{ result: Failure }>(r);
      expect(result).toEqual({
        id: BROKEN,
        path: 'docs/sysrs/broken-outline.md',
        kind: 'sysrs',
        error: '12:1 Unexpected `## Business Context and Goals`, expected `## System Scope` [sysrs-missing-section]',
        diagnostics: [
          { line: 12, column: 1, rule: 'sysrs-missing-section', message: 'Unexpected `## Business Context and Goals`, expected `## System Scope`' },
        ],
        // SPEC §11: the file's text, for the agent to repair.
        content: fileText('docs/sysrs/broken-outline.md'),
      });
      expect(JSON.parse(textOf(r))).toEqual(result);
    }
    const bad = structuredOf<{ result: Failure }>(await s.call('get_sysrs', { id: STATUS_BAD }));
    expect(bad.result.diagnostics.map((d) => d.rule)).toEqual(['invalid-value', 'invalid-value']);
  });

  it('reads a language variant: raw verbatim, parsed with canonical keys; broken variants give their failure', async () => {
    const raw = await s.call('get_sysrs', { id: ALPHA, raw: true, language: 'de' });
    expect(textOf(raw)).toBe(rawBodyOf(fileText('docs/sysrs/de/alpha.md')));
    expect(textOf(raw).startsWith('# Systemanforderungsspezifikation: Alpha\n')).toBe(true);
    const parsed = structuredOf<{ result: { body: Record<string, any> } }>(await s.call('get_sysrs', { id: ALPHA, language: 'de' }));
    expect(parsed.result.body.system_purpose).toEqual({ text: 'Zweck von Alpha.', line: 9 });
    expect(Object.keys(parsed.result.body)).toEqual(
      Object.keys(structuredOf<{ result: { body: object } }>(await s.call('get_sysrs', { id: ALPHA })).result.body),
    );
    expect(parsed.result.body.requirements.functional_suitability.items[0].title).toBe('Dokumente ausliefern');
    const broken = structuredOf<{ result: Failure }>(await s.call('get_sysrs', { id: BETA, language: 'de', raw: true }));
    expect(broken.result).toMatchObject({ id: BETA, path: 'docs/sysrs/de/beta.md', kind: 'sysrs' });
    expect(broken.result.error).toContain('[sysrs-unknown-heading]');
  });

  it('rejects languages by shape first, then by heading table, naming the available ones', async () => {
    const xx = await s.call('get_sysrs', { id: ALPHA, language: 'xx' });
    expect(xx.isError).toBe(true);
    expect(textOf(xx)).toBe("Unsupported language 'xx': no heading table schemas/sysrs-headings.xx.json exists. Available languages: en, de.");
    for (const language of ['EN', 'e', 'de/..', '../de', '']) {
      const r = await s.call('get_sysrs', { id: ALPHA, language });
      expect(r.isError, language).toBe(true);
      expect(textOf(r)).toBe(`Invalid language '${language}': expected a two-letter lowercase code such as 'en' or 'de'.`);
    }
  });
});

describe('argument checks come before any file access (fs spy in the server)', () => {
  it('rejects bad ids, window combinations and language shapes without touching the root', async () => {
    const env = { NODE_OPTIONS: `--import ${FS_SPY}`, DOCGATE_SPY_ROOT: CONTENT, DOCGATE_MCP_DEBUG: '1' };
    const t = await startMcp(CONTENT, env);
    try {
      const bad: Record<string, unknown>[] = [
        { id: '../x' },
        { id: 'a/b' },
        { id: '..' },
        { id: 'ABCDEFAB-1234-4321-8765-0123456789AB' },
        { id: `sysrs-${ALPHA}` },
        { id: `${ALPHA}/../x`, raw: true },
        { id: '..\\..\\x' },
        { id: ALPHA, offset: 1 },
        { id: ALPHA, numbered: true },
        { id: ALPHA, language: 'EN' },
        { id: ALPHA, language: '../../etc' },
      ];
      for (const args of bad) {
        const r = await t.call('get_sysrs', args);
        expect(r.isError, JSON.stringify(args)).toBe(true);
        expect(r.structuredContent).toBeUndefined();
      }
      expect((await t.call('search_processes', { query: ' ' })).isError).toBe(true);
      // A shape-valid language without a table reads rule files only (schemas/), never content.
      expect((await t.call('get_sysrs', { id: ALPHA, language: 'xx' })).isError).toBe(true);
      // Positive control: a valid call reads the documents, and the spy sees it.
      expect(textOf(await t.call('get_sysrs', { id: ALPHA, raw: true, limit: 1 }))).toBe('# System Requirements Specification: Alpha\n');
      const last = bad.length + 3;
      await stderrContains(t, `call #${last} get_sysrs end`);

      const segments = new Map<number, string[]>();
      let current: number | null = null;
      for (const line of t.stderr().split('\n')) {
        const m = /^docgate mcp: call #(\d+) \S+ (begin|end)$/.exec(line);
        if (m) current = m[2] === 'begin' ? Number(m[1]) : null;
        else if (current !== null && line.startsWith('FS ')) segments.set(current, [...(segments.get(current) ?? []), line]);
      }
      for (let n = 1; n <= bad.length + 1; n++) expect(segments.get(n) ?? [], `call #${n}`).toEqual([]);
      const xx = segments.get(bad.length + 2) ?? [];
      // Rule data only: the rule files, whether a configuration exists (it decides the kinds and the
      // rule folder, SPEC §8) and the baseline's stat (the project is kept while these are unchanged);
      // never content.
      expect(
        xx.filter((l) => !l.includes(`${CONTENT}/schemas`) && !/\/docgate\.config\.[a-z]+$/.test(l) && !l.endsWith(`${CONTENT}/docgate-suppressions.json`)),
      ).toEqual([]);
      expect((segments.get(last) ?? []).some((l) => l.includes('docs/sysrs'))).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe('parse_sysrs', () => {
  it('parses text without a file: the document, or a ParseFailureResult with path ""', async () => {
    const ok = structuredOf<{ result: { frontmatter: object; body: object } }>(await s.call('parse_sysrs', { content: fileText('docs/sysrs/alpha.md') }));
    const got = structuredOf<{ result: object }>(await s.call('get_sysrs', { id: ALPHA }));
    expect(ok).toEqual(got);
    const bad = structuredOf<{ result: Failure }>(await s.call('parse_sysrs', { content: fileText('docs/sysrs/broken-outline.md') }));
    expect(bad.result).toMatchObject({ id: BROKEN, path: '', kind: 'sysrs' });
    const listed = structuredOf<Page>(await s.call('list_sysrs')).results.find((row) => row.path === 'docs/sysrs/broken-outline.md')!;
    expect(bad.result.error).toBe(listed.error);
  });

  it('parses a variant through its heading table and checks the language', async () => {
    const de = structuredOf<{ result: { body: Record<string, unknown> } }>(
      await s.call('parse_sysrs', { content: fileText('docs/sysrs/de/alpha.md'), language: 'de' }),
    );
    expect(de.result.body.system_purpose).toEqual({ text: 'Zweck von Alpha.', line: 9 });
    const asEnglish = structuredOf<{ result: Failure }>(await s.call('parse_sysrs', { content: fileText('docs/sysrs/de/alpha.md') }));
    expect(asEnglish.result.error).toMatch(/\[sysrs-h1\]|\[sysrs-missing-section\]|\[sysrs-unknown-heading\]/);
    expect((await s.call('parse_sysrs', { content: 'x', language: 'xx' })).isError).toBe(true);
  });

  it('answers empty or non-document text with a failure, never an error', async () => {
    for (const content of ['', '---\n', '\u0000', 'a: [b\n']) {
      const r = await s.call('parse_sysrs', { content });
      expect(r.isError ?? false, JSON.stringify(content)).toBe(false);
      expect(structuredOf<{ result: Failure }>(r).result.path).toBe('');
    }
  });
});
