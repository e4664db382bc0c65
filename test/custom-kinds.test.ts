import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FS_SPY, startMcp, structuredOf, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import { runCli } from './helpers.js';

/**
 * A kind of the root's own (SPEC §9): architecture decision records in docs/adr/, declared in
 * docgate.config.yaml with a frontmatter schema and a body outline of two sections. It gets everything
 * a built-in kind gets: lint, every format, the cache, and the MCP document tools.
 */
const CONFIG = `kinds:
  adr:
    include: ["docs/adr/*.md"]
    id: frontmatter
    frontmatter: adr.schema.json
    outline: adr-outline.json
`;

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    id: { type: 'string', pattern: '^ADR-[0-9]{4}$', description: 'an id such as `ADR-0001`' },
    status: { enum: ['proposed', 'accepted', 'superseded'] },
  },
  required: ['id', 'status'],
  additionalProperties: false,
};

const OUTLINE = {
  name: 'ADR',
  h1Prefix: 'ADR: ',
  sections: [
    { heading: 'Context', level: 2, mandatory: true, content: 'prose' },
    { heading: 'Decision', level: 2, mandatory: true, content: 'prose' },
  ],
};

function adr(id: string, status: string, body = '# ADR: Use docgate\n\n## Context\n\nContent rots.\n\n## Decision\n\nLint it.\n'): string {
  return `---\nid: ${id}\nstatus: ${status}\n---\n\n${body}`;
}

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function root(files: Record<string, string>): string {
  const r = mkdtempSync(join(tmpdir(), 'docgate-adr-'));
  roots.push(r);
  const all: Record<string, string> = {
    'docgate.config.yaml': CONFIG,
    'schemas/adr.schema.json': JSON.stringify(SCHEMA, null, 2),
    'schemas/adr-outline.json': JSON.stringify(OUTLINE, null, 2),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(r, path)), { recursive: true });
    writeFileSync(join(r, path), text);
  }
  return r;
}

interface Failure {
  id: string;
  path: string;
  kind: string;
  error: string;
  diagnostics: { line: number; column: number; rule: string; message: string }[];
}

function json(r: string, ...args: string[]): { code: number | null; report: { results: Failure[]; filesChecked: number } } {
  const out = runCli(['lint', '--root', r, '--format', 'json', ...args]);
  return { code: out.code, report: JSON.parse(out.stdout) as { results: Failure[]; filesChecked: number } };
}

describe('a kind of your own: ADRs in docs/adr/*.md', () => {
  it('passes a valid ADR', () => {
    const r = root({ 'docs/adr/0001-use-docgate.md': adr('ADR-0001', 'accepted') });
    // With a configuration, the json report carries warnings and counts too (SPEC §8).
    expect(json(r)).toEqual({ code: 0, report: { results: [], warnings: [], filesChecked: 1, problemCount: 0, errorCount: 0, warningCount: 0 } });
  });

  it('reports a bad enum value as one diagnostic at its line', () => {
    const r = root({ 'docs/adr/0001-use-docgate.md': adr('ADR-0001', 'decided') });
    const { code, report } = json(r);
    expect(code).toBe(1);
    expect(report.results).toEqual([
      {
        id: 'ADR-0001',
        path: 'docs/adr/0001-use-docgate.md',
        kind: 'adr',
        error: '3:9 Unexpected `status` value `decided`, expected one of: `proposed`, `accepted`, `superseded` [invalid-value]',
        diagnostics: [
          {
            line: 3,
            column: 9,
            rule: 'invalid-value',
            message: 'Unexpected `status` value `decided`, expected one of: `proposed`, `accepted`, `superseded`',
            severity: 'error',
          },
        ],
      },
    ]);
  });

  it('fails a duplicate frontmatter id on both files', () => {
    const r = root({ 'docs/adr/0001-a.md': adr('ADR-0001', 'accepted'), 'docs/adr/0002-b.md': adr('ADR-0001', 'proposed') });
    const { code, report } = json(r);
    expect(code).toBe(1);
    expect(report.results.map((f) => [f.path, f.error])).toEqual([
      [
        'docs/adr/0001-a.md',
        '2:5 Unexpected duplicate id `ADR-0001`, expected ids unique across adr documents (also in docs/adr/0002-b.md) [adr-duplicate-id]',
      ],
      [
        'docs/adr/0002-b.md',
        '2:5 Unexpected duplicate id `ADR-0001`, expected ids unique across adr documents (also in docs/adr/0001-a.md) [adr-duplicate-id]',
      ],
    ]);
  });

  it('checks the body against its outline, with positions on disk, under its own rule ids', () => {
    const body = '# ADR: Use docgate\n\n## Decision\n\nLint it.\n\n## Context\n\nContent rots.\n';
    const r = root({ 'docs/adr/0001-use-docgate.md': adr('ADR-0001', 'accepted', body) });
    const { report } = json(r);
    expect(report.results[0]!.error.split('\n')).toEqual([
      '12:1 Unexpected `## Context` after `## Decision`, expected it before `## Decision` [adr-heading-order]',
    ]);
    const extra = root({
      'docs/adr/0001-use-docgate.md': adr(
        'ADR-0001',
        'accepted',
        '# ADR: Use docgate\n\n## Context\n\nContent rots.\n\n## Decision\n\nLint it.\n\n## Consequences\n\nNone.\n',
      ),
    });
    expect(json(extra).report.results[0]!.error).toBe(
      '16:1 Unexpected heading `## Consequences`, expected a section heading of the ADR outline [adr-unknown-heading]',
    );
  });

  it('carries kind `adr` in json, SARIF and JUnit', () => {
    const r = root({ 'docs/adr/0001-use-docgate.md': adr('ADR-0001', 'decided') });
    expect(json(r).report.results[0]!.kind).toBe('adr');
    const sarif = JSON.parse(runCli(['lint', '--root', r, '--format', 'sarif']).stdout) as {
      runs: {
        artifacts: { location: { uri: string }; properties: { kind: string } }[];
        tool: { driver: { rules: { id: string; shortDescription: { text: string } }[] } };
      }[];
    };
    expect(sarif.runs[0]!.artifacts).toEqual([{ location: { uri: 'docs/adr/0001-use-docgate.md', uriBaseId: '%SRCROOT%' }, properties: { kind: 'adr' } }]);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(runCli(['lint', '--root', r, '--format', 'junit']).stdout) as {
      testsuites: { testsuite: { '@_name': string; testcase: { '@_classname': string; '@_name': string } } };
    };
    expect(junit.testsuites.testsuite['@_name']).toBe('adr');
    expect(junit.testsuites.testsuite.testcase['@_classname']).toBe('adr');
  });

  it('describes its own rules in SARIF from its registry entry', () => {
    const r = root({ 'docs/adr/0001-a.md': adr('ADR-0001', 'accepted'), 'docs/adr/0002-b.md': adr('ADR-0001', 'accepted') });
    const sarif = JSON.parse(runCli(['lint', '--root', r, '--format', 'sarif']).stdout) as {
      runs: { tool: { driver: { rules: { id: string; shortDescription: { text: string } }[] } } }[];
    };
    expect(sarif.runs[0]!.tool.driver.rules).toEqual([
      { id: 'adr-duplicate-id', shortDescription: { text: 'Ids of adr documents must be unique' }, defaultConfiguration: { level: 'error' } },
    ]);
  });

  it('is replayed from the cache byte for byte', () => {
    const r = root({ 'docs/adr/0001-a.md': adr('ADR-0001', 'decided'), 'docs/adr/0002-b.md': adr('ADR-0002', 'accepted') });
    const cold = runCli(['lint', '--root', r, '--format', 'json', '--cache']);
    const cache = readFileSync(join(r, '.docgatecache'), 'utf8');
    expect(cache).toContain('docs/adr/0001-a.md');
    const warm = runCli(['lint', '--root', r, '--format', 'json', '--cache']);
    expect(warm.stdout).toBe(cold.stdout);
    expect(warm.code).toBe(1);
  });

  it('refuses a configured kind whose schema file is missing (exit 2 naming it)', () => {
    const r = root({ 'docs/adr/0001-a.md': adr('ADR-0001', 'accepted') });
    rmSync(join(r, 'schemas/adr.schema.json'));
    const out = runCli(['lint', '--root', r]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('adr.schema.json');
  });
});

describe('MCP list_documents and get_document for a kind of your own', () => {
  let r: string;
  let s: McpSession;
  beforeAll(async () => {
    r = root({
      'docs/adr/0001-use-docgate.md': adr('ADR-0001', 'accepted'),
      'docs/adr/0002-broken.md': adr('ADR-0002', 'decided'),
      'docs/adr/0003-later.md': adr('ADR-0003', 'proposed'),
    });
    s = await startMcp(r, { NODE_OPTIONS: `--import ${FS_SPY}`, DOCGATE_SPY_ROOT: r, DOCGATE_MCP_DEBUG: '1' });
  });
  afterAll(async () => {
    await s.close();
  });

  it('lists rows with paging, and a failed row carrying its error', async () => {
    const page = structuredOf<{
      kind: string;
      results: { id: string | null; title: string; path: string; error: string | null }[];
      total: number;
      truncated: boolean;
      error_count: number;
    }>(await s.call('list_documents', { kind: 'adr', max_results: 2 }));
    const lintError = json(r).report.results[0]!.error;
    expect(page).toEqual({
      kind: 'adr',
      results: [
        { id: 'ADR-0001', title: 'ADR: Use docgate', path: 'docs/adr/0001-use-docgate.md', error: null },
        { id: null, title: '<failed to parse>', path: 'docs/adr/0002-broken.md', error: lintError },
      ],
      total: 3,
      offset: 0,
      max_results: 2,
      truncated: true,
      error_count: 1,
    });
  });

  it('gets a document, and a failing one as its ParseFailureResult with the error lint prints', async () => {
    const doc = structuredOf<{ result: { id: string; frontmatter: Record<string, unknown>; title: string; body: Record<string, unknown> } }>(
      await s.call('get_document', { kind: 'adr', id: 'ADR-0001' }),
    );
    expect(doc.result).toMatchObject({ kind: 'adr', id: 'ADR-0001', frontmatter: { id: 'ADR-0001', status: 'accepted' }, title: 'ADR: Use docgate' });
    expect(Object.keys(doc.result.body)).toEqual(['context', 'decision']);
    const failed = structuredOf<{ result: Failure }>(await s.call('get_document', { kind: 'adr', id: 'ADR-0002' }));
    expect(failed.result.error).toBe(json(r).report.results[0]!.error);
    expect(failed.result.kind).toBe('adr');
  });

  it('refuses `../x` as an id and an unknown kind, before any file access', async () => {
    const before = s.stderr().length;
    const bad = await s.call('get_document', { kind: 'adr', id: '../x' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("Invalid id '../x'");
    const unknown = await s.call('get_document', { kind: 'nope', id: 'x' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("Unknown kind 'nope': expected one of template, framework, process, sysrs, adr.");
    const log = s.stderr().slice(before);
    const calls = log.split('docgate mcp: call #');
    // The bad id: no file at all; the unknown kind: the configuration and rule files only, no document.
    expect(calls[1]).not.toContain('FS ');
    expect(calls[2]!.split('\n').filter((l) => l.startsWith('FS ') && l.includes('/docs/'))).toEqual([]);
  });
});
