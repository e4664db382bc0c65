import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT, REPO, startMcp, resultOf, structuredOf, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import type { ParseFailureResult as Failure } from '../src/model/types.js';

let bundled: McpSession;
let content: McpSession;
beforeAll(async () => {
  [bundled, content] = await Promise.all([startMcp(REPO), startMcp(CONTENT)]);
});
afterAll(async () => {
  await Promise.all([bundled.close(), content.close()]);
});

describe('templates and frameworks (seed 000 text formats)', () => {
  it('list_templates on the bundled content matches the seed pattern and lists names sorted', async () => {
    const r = await bundled.call('list_templates');
    expect(textOf(r)).toMatch(/^Available POWER Framework Templates:\n\n(\d+\. \w+\n)+\nTotal: \d+ templates$/);
    expect(textOf(r)).toBe('Available POWER Framework Templates:\n\n1. api\n2. architecture\n3. components\n4. readme\n5. schema\n\nTotal: 5 templates');
    const sc = structuredOf<{ templates: { name: string; save_as: string; store_as: string }[]; failures: Failure[] }>(r);
    expect(sc.templates.find((t) => t.name === 'readme')).toEqual({ name: 'readme', save_as: 'README.md', store_as: 'readme_summary' });
    expect(sc.failures).toEqual([]);
  });

  it('get_template gives the seed header followed by the file bytes', async () => {
    const r = await bundled.call('get_template', { template_name: 'readme' });
    expect(r.isError ?? false).toBe(false);
    expect(textOf(r)).toBe(`=== README Template ===\n\n${readFileSync(join(REPO, 'templates/power/readme.txt'), 'utf8')}`);
    expect(textOf(r)).toMatch(/^=== [A-Z]+ Template ===\n\n/);
  });

  it('get_template with an unknown name is a normal result naming the available templates', async () => {
    const r = await bundled.call('get_template', { template_name: 'x' });
    expect(r.isError ?? false).toBe(false);
    expect(textOf(r)).toBe("Template 'x' not found. Available: api, architecture, components, readme, schema");
    expect(structuredOf(r)).toEqual({
      result: { error: 'TEMPLATE_NOT_FOUND', message: textOf(r), available: ['api', 'architecture', 'components', 'readme', 'schema'] },
    });
  });

  it('list_templates lists failures after the seed-format part, with their first error line', async () => {
    const r = await content.call('list_templates');
    const text = textOf(r);
    const [head, tail] = text.split('\n\nFailed to parse: ');
    expect(head).toBe('Available POWER Framework Templates:\n\n1. alpha\n2. beta\n\nTotal: 2 templates');
    expect(tail).toBe(
      [
        '2',
        'broken: 2:10 Unexpected `purpose` value `Generate BROKEN.md without a final period`, expected a value matching `^[^.!?]*(?:[.!?]+[^\\s.!?][^.!?]*)*[.!?]*[^\\s.]\\.$` (one sentence ending with a period) [invalid-value]',
        'dangling: 2:36 Unexpected placeholder `{{ghost_summary}}` that no template stores, expected the `store_as` of another template [template-placeholder]',
      ].join('\n'),
    );
    const sc = structuredOf<{ failures: Failure[] }>(r);
    expect(sc.failures.map((f) => f.path)).toEqual(['templates/power/broken.txt', 'templates/power/dangling.txt']);
    expect(sc.failures[0]!.error.split('\n')).toHaveLength(2);
  });

  it('get_template of a broken template is a normal result carrying its ParseFailureResult', async () => {
    const r = await content.call('get_template', { template_name: 'broken' });
    expect(r.isError ?? false).toBe(false);
    const { result } = structuredOf<{ result: Failure }>(r);
    expect(result).toMatchObject({ id: 'broken', path: 'templates/power/broken.txt', kind: 'template' });
    expect(result.diagnostics).toHaveLength(2);
    expect(JSON.parse(textOf(r))).toEqual(result);
  });

  it('list_frameworks on the bundled content matches the seed pattern', async () => {
    const r = await bundled.call('list_frameworks');
    expect(textOf(r)).toMatch(/^Available Framework Documentation:\n\n(\d+\. [^\n]+ \([\d,]+ bytes\)\n)+\nTotal: \d+ framework docs$/);
    expect(textOf(r)).toMatch(/\n1\. COSTAR\.md \(\d,\d{3} bytes\)\n2\. CRISPE\.md/);
    expect(textOf(r).endsWith('\nTotal: 4 framework docs')).toBe(true);
  });

  it('list_frameworks shows sizes with thousands separators: a 2,156-byte file shows (2,156 bytes)', async () => {
    const r = await content.call('list_frameworks');
    expect(textOf(r)).toBe(
      'Available Framework Documentation:\n\n1. COSTAR.md (2,156 bytes)\n2. Notes.md (39 bytes)\n\nTotal: 2 framework docs' +
        '\n\nFailed to parse: 1\nBroken.md: 1:1 Unexpected first line `Notes without a heading`, expected a `# ` heading [framework-heading]',
    );
    expect(structuredOf(r)).toMatchObject({
      frameworks: [
        { name: 'COSTAR.md', size: 2156 },
        { name: 'Notes.md', size: 39 },
      ],
    });
  });

  it('get_framework returns the document text; unknown and broken are normal results', async () => {
    const ok = await content.call('get_framework', { name: 'COSTAR.md' });
    expect(textOf(ok)).toBe(readFileSync(join(CONTENT, 'frameworks/COSTAR.md'), 'utf8'));
    expect(textOf(await content.call('get_framework', { name: 'Notes' }))).toBe('# Notes\n\nShort notes about frameworks.\n');
    const unknown = await content.call('get_framework', { name: 'X.md' });
    expect(unknown.isError ?? false).toBe(false);
    expect(textOf(unknown)).toBe("Framework 'X.md' not found. Available: Broken.md, COSTAR.md, Notes.md");
    const broken = await content.call('get_framework', { name: 'Broken.md' });
    expect(structuredOf<{ result: Failure }>(broken).result).toMatchObject({ id: 'Broken.md', kind: 'framework', path: 'frameworks/Broken.md' });
  });
});

describe('processes (seed 001)', () => {
  it('list_processes lists parsed processes with name, slug, description, and counts failures', async () => {
    const sc = structuredOf<{ processes: unknown[]; count: number; error_count: number; failures: Failure[]; message?: string }>(
      await content.call('list_processes'),
    );
    expect(sc.processes).toEqual([
      { name: 'Code Review', slug: 'code-review', description: 'Standard procedure for code reviews' },
      { name: 'Deployment', slug: 'deployment', description: 'Production deployment steps' },
      { name: 'Release Notes', slug: 'release-notes', description: '' },
    ]);
    expect(sc.count).toBe(3);
    expect(sc.error_count).toBe(3);
    expect(sc.failures.map((f) => f.id)).toEqual(['broken-key', 'dup-one', 'dup-two']);
    expect(sc.message).toBeUndefined();
  });

  it('list_processes on a root without processes says so', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'docgate-mcp-empty-'));
    const t = await startMcp(empty);
    try {
      const r = await t.call('list_processes');
      expect(structuredOf(r)).toEqual({ processes: [], count: 0, error_count: 0, failures: [], message: 'No processes found in the process directory.' });
      expect(JSON.parse(textOf(r))).toEqual(structuredOf(r));
    } finally {
      await t.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('get_process finds a process by slug or by frontmatter name in any letter case', async () => {
    const body = readFileSync(join(CONTENT, 'processes/code-review.md'), 'utf8').split('---\n\n')[1];
    const expected = { name: 'Code Review', slug: 'code-review', description: 'Standard procedure for code reviews', content: body };
    for (const name of ['code-review', 'CODE-Review', 'Code Review', 'code review', 'CODE REVIEW']) {
      const r = await content.call('get_process', { name });
      expect(resultOf(r), name).toEqual(expected);
      expect(JSON.parse(textOf(r))).toEqual(expected);
    }
    expect(resultOf(await content.call('get_process', { name: 'release NOTES' }))).toMatchObject({ slug: 'release-notes', name: 'Release Notes' });
  });

  it('get_process of an unknown name answers PROCESS_NOT_FOUND with the available slugs', async () => {
    const r = await content.call('get_process', { name: 'unknown' });
    expect(r.isError ?? false).toBe(false);
    expect(resultOf(r)).toEqual({
      error: 'PROCESS_NOT_FOUND',
      message: "Process 'unknown' not found.",
      available: ['broken-key', 'code-review', 'deployment', 'dup-one', 'dup-two', 'release-notes'],
    });
  });

  it('get_process of a broken process answers its ParseFailureResult, by slug or by its declared name', async () => {
    const r = await content.call('get_process', { name: 'broken-key' });
    expect(resultOf(r)).toMatchObject({ id: 'broken-key', kind: 'process', path: 'processes/broken-key.md' });
    expect(resultOf<Failure>(r).error).toBe('3:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]');
    expect(resultOf(await content.call('get_process', { name: 'PEER check' }))).toMatchObject({ id: 'dup-one', path: 'processes/dup-one.md' });
  });

  it('search_processes scores name 100, description 50, content 10 per occurrence, sorts by score then slug', async () => {
    const r = await content.call('search_processes', { query: 'DEPLOY' });
    const sc = structuredOf<{ results: { slug: string; relevance_score: number; snippet: string }[]; query: string; count: number; total_processes: number }>(
      r,
    );
    expect(sc.query).toBe('DEPLOY');
    expect(sc.total_processes).toBe(3);
    expect(sc.count).toBe(3);
    // deployment: name 100 + description 50 + 4 body occurrences × 10 = 190 → 0.95; the others: one body occurrence each.
    expect(sc.results.map((x) => [x.slug, x.relevance_score])).toEqual([
      ['deployment', 0.95],
      ['code-review', 0.05],
      ['release-notes', 0.05],
    ]);
    const deployment = readFileSync(join(CONTENT, 'processes/deployment.md'), 'utf8').split('---\n\n')[1]!;
    expect(sc.results[0]!.snippet).toBe(`${deployment.slice(0, 2 + 6 + 50)}...`);
    const review = readFileSync(join(CONTENT, 'processes/code-review.md'), 'utf8').split('---\n\n')[1]!;
    const at = review.indexOf('deploy');
    expect(sc.results[1]!.snippet).toBe(`...${review.slice(at - 50, at + 6 + 50)}${at + 56 < review.length ? '...' : ''}`);
    expect(sc.results[1]!.snippet.startsWith('...')).toBe(true);
  });

  it('search_processes caps body points at 50 and leaves the snippet empty when only name or description matched', async () => {
    const desc = structuredOf<{ results: { slug: string; relevance_score: number; snippet: string }[] }>(
      await content.call('search_processes', { query: 'standard PROCEDURE' }),
    );
    expect(desc.results).toEqual([
      { name: 'Code Review', slug: 'code-review', description: 'Standard procedure for code reviews', relevance_score: 0.25, snippet: '' },
    ]);
    const none = structuredOf(await content.call('search_processes', { query: 'no such words' }));
    expect(none).toEqual({ results: [], query: 'no such words', count: 0, total_processes: 3, message: 'No processes matched the search criteria.' });
  });

  it('search_processes with an empty or whitespace query is an isError result', async () => {
    for (const query of ['', '   ', '\n\t']) {
      const r = await content.call('search_processes', { query });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      expect(textOf(r)).toBe('query must not be empty');
    }
  });
});

describe('search_processes over 60 matching processes', () => {
  const root = mkdtempSync(join(tmpdir(), 'docgate-mcp-search-'));
  beforeAll(() => {
    mkdirSync(join(root, 'processes'));
    for (let i = 0; i < 60; i++) {
      // Body occurrences 1..6 (the last capped at 50 points); every 10th also matches in its name.
      const n = (i % 6) + 1;
      const slug = `proc-${String(i).padStart(2, '0')}`;
      const name = i % 10 === 0 ? `Needle Process ${i}` : `Process ${i}`;
      writeFileSync(join(root, 'processes', `${slug}.md`), `---\nname: ${name}\n---\n\n# Procedure ${i}\n\n${'a needle here. '.repeat(n)}\n`);
    }
    for (let i = 0; i < 5; i++) writeFileSync(join(root, 'processes', `other-${i}.md`), `# Other ${i}\n\nNothing to find.\n`);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('returns at most 50 results, best first, with count 50 and total_processes 65', async () => {
    const t = await startMcp(root);
    try {
      const sc = structuredOf<{ results: { slug: string; relevance_score: number }[]; count: number; total_processes: number }>(
        await t.call('search_processes', { query: 'needle' }),
      );
      expect(sc.count).toBe(50);
      expect(sc.results).toHaveLength(50);
      expect(sc.total_processes).toBe(65);
      const all = Array.from({ length: 60 }, (_, i) => {
        const points = (i % 10 === 0 ? 100 : 0) + Math.min(50, ((i % 6) + 1) * 10);
        return { slug: `proc-${String(i).padStart(2, '0')}`, relevance_score: Math.round((points / 200) * 100) / 100 };
      });
      all.sort((a, b) => b.relevance_score - a.relevance_score || (a.slug < b.slug ? -1 : 1));
      expect(sc.results.map((x) => ({ slug: x.slug, relevance_score: x.relevance_score }))).toEqual(all.slice(0, 50));
      expect(sc.results[0]).toMatchObject({ slug: 'proc-10', relevance_score: 0.75 }); // 100 + 5 × 10
    } finally {
      await t.close();
    }
  });
});
