import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startMcp, structuredOf, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import { REPO, runCli } from './helpers.js';

/**
 * Every kind of every preset, listed and read over MCP (the SDK client validates every structured answer
 * against the tool's output schema): each document of the preset's fixture repository is listed once,
 * opened by its path (a failed row as its ParseFailureResult, the error lint prints), and, where it has an
 * id, by {kind, id} with the same answer.
 */
const PRESETS = ['agent-skills', 'claude-code', 'copilot', 'cursor', 'agents-md'];

/** The kinds a preset brings, its own and those of the presets it builds on (read from its data file). */
function kindsOf(preset: string): string[] {
  const data = parse(readFileSync(join(REPO, 'presets', `${preset}.yaml`), 'utf8')) as { presets?: string[]; kinds?: Record<string, unknown> };
  return [...new Set([...(data.presets ?? []).flatMap(kindsOf), ...Object.keys(data.kinds ?? {})])];
}

interface Row {
  id: string | null;
  path: string;
  error: string | null;
}

describe.each(PRESETS)('preset %s over MCP', (preset) => {
  const root = join(REPO, 'test', 'fixtures', 'presets', preset);
  let s: McpSession;
  let report: { filesChecked: number; results: { path: string; error: string }[] };
  beforeAll(async () => {
    s = await startMcp(root);
    report = JSON.parse(runCli(['lint', '--root', root, '--format', 'json']).stdout);
  });
  afterAll(async () => {
    await s.close();
  });

  it('lists every document of every kind once, and opens each by its path and by its id', async () => {
    const listed: Row[] = [];
    for (const kind of kindsOf(preset)) {
      const rows: Row[] = [];
      for (let offset = 0; ; offset += 100) {
        const r = await s.call('list_documents', { kind, max_results: 100, offset });
        expect(r.isError ?? false, textOf(r)).toBe(false);
        const page = structuredOf<{ results: Row[]; truncated: boolean }>(r);
        rows.push(...page.results);
        if (!page.truncated) break;
      }
      for (const row of rows) {
        const byPath = await s.call('get_document', { path: row.path });
        expect(byPath.isError ?? false, `${row.path}: ${textOf(byPath)}`).toBe(false);
        const got = structuredOf<{ result: { kind: string; error?: string } }>(byPath).result;
        expect(got.kind).toBe(kind);
        const failure = report.results.find((f) => f.path === row.path);
        expect(row.error, row.path).toBe(failure?.error ?? null);
        if (failure) expect(got.error).toBe(failure.error);
        const unique = rows.filter((x) => x.id === row.id).length === 1;
        if (row.id !== null && unique) expect(structuredOf(await s.call('get_document', { kind, id: row.id }))).toEqual(structuredOf(byPath));
      }
      listed.push(...rows);
    }
    // Every document lint checked is listed exactly once.
    expect(listed.length).toBe(report.filesChecked);
    expect(new Set(listed.map((r) => r.path)).size).toBe(listed.length);
    expect(listed.length).toBeGreaterThan(0);
  });
});
